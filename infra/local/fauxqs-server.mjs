// Runs the SQS + S3 emulator in its own process, so CPU work in the runtime never stalls it.
import { startFauxqs } from "fauxqs";

const server = await startFauxqs({ port: Number(process.env.FAUXQS_PORT ?? 0), logger: false });
process.send?.({ port: server.port });
process.on("disconnect", () => process.exit(0));
