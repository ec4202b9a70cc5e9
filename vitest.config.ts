import { defineConfig } from "vitest/config";

/** The tests that measure a child process's peak memory. */
const ISOLATED = ["test/bench/memory-at-caps.test.ts", "test/bench/discover-memory.test.ts"];

export default defineConfig({
  test: {
    // Workers keep their modules between files (isolate: false): the suite on 2 cores took 535 s with
    // isolated files and 412 s without (12.5 and 8.5 CPU-minutes); no test mocks a module. The memory
    // tests stay isolated: run after other files in one worker, the fetch test's child (a fresh process)
    // measured 251 MB against the then 197 MB cap, a cause not found.
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: ISOLATED,
          isolate: false,
          // Only this project's files use the emulators (a setup here runs once per project).
          globalSetup: ["test/global-setup.ts"],
        },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED, isolate: true } },
    ],
    setupFiles: ["test/setup-fast-check.ts"],
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ["default", ["json", { outputFile: "out/vitest-report.json" }]],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Vitest's default is one fewer than the cores: one worker on a 2-core CI machine. Most files wait on
    // the emulators and on child processes, not the CPU, so two workers overlap those waits.
    maxWorkers: 2,
    // `npm test` turns coverage on (--coverage); a run of single files stays fast and threshold-free.
    // V8 coverage costs ~36 % more CPU on CPU-bound in-process tests (the evals, property tests) and
    // nothing measurable on emulator-bound ones. cli/ is left out: its tests run it in child processes,
    // which the workers' coverage cannot see.
    coverage: {
      provider: "v8",
      include: ["shared/**", "lambdas/**", "infra/**"],
      reporter: ["text-summary", ["json-summary", { file: "coverage-summary.json" }]],
      reportsDirectory: "out/coverage",
      // Floors: the full suite measured 93.96 % statements, 87.35 % branches, 94.85 % functions and
      // 95.67 % lines (2026-12-03); each floor is that less about 2 points, so a change that leaves new
      // code untested fails `npm test`.
      thresholds: { statements: 92, branches: 85, functions: 92, lines: 93 },
    },
    // Handlers log JSON through Powertools; tests only want warnings and errors.
    env: {
      POWERTOOLS_LOG_LEVEL: "WARN",
      POWERTOOLS_METRICS_DISABLED: "true",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
  },
});
