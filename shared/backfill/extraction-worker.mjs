// A worker thread starts without the parent's module hooks: tsx is registered here, as in
// bin/storytrail.js, before the TypeScript worker is loaded.
import { register } from "tsx/esm/api";

register();
await import("./extraction-worker.ts");
