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
    // Handlers log JSON through Powertools; tests only want warnings and errors.
    env: {
      POWERTOOLS_LOG_LEVEL: "WARN",
      POWERTOOLS_METRICS_DISABLED: "true",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
  },
});
