#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, resolved from this package so the bin works from any directory.
import { register } from "tsx/esm/api";

// Local runs print a summary; handler logs (JSON, as in Lambda) only when asked for.
process.env.POWERTOOLS_LOG_LEVEL ??= "WARN";
// CloudWatch metrics (EMF) mean nothing on one machine.
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
// Node 20 is supported here; the SDK's notice about future releases is noise on every command.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
register();
await import("../cli/storytrail.ts");
