// Runs the SQS + S3 emulator in its own process, so CPU work in the runtime never stalls it. On the
// loopback address only: fauxqs's own startFauxqs listens on every interface (0.0.0.0), which would put a
// local run's queues and buckets on the network.
import { buildApp } from "fauxqs";

const app = buildApp({ logger: false });
const address = await app.listen({ port: Number(process.env.FAUXQS_PORT ?? 0), host: "127.0.0.1" });
process.send?.({ port: Number(new URL(address).port) });
process.on("disconnect", () => process.exit(0));
