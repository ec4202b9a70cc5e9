#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, resolved from this package so the bin works from any directory.
import { register } from "tsx/esm/api";

register();
await import("../cli/storytrail.ts");
