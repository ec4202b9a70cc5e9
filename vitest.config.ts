import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
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
