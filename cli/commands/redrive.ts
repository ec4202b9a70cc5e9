/** `storytrail redrive`: moves a dead-letter queue's messages back to their queue after a fix. */
import type { Command } from "commander";
import { InputError } from "../input-error";

interface RedriveCliOptions {
  queue: string;
  stack: string;
  region?: string;
  endpoint?: string;
  max?: string;
}

export function registerRedrive(program: Command): void {
  program
    .command("redrive")
    .description(
      "Move the messages of a deployed stack's dead-letter queue back to their queue, with counts.",
    )
    .requiredOption("--queue <name>", "which queue's DLQ: fetch or dedup")
    .option("--stack <name>", "the deployed stack's name (queue names derive from it)", "Storytrail")
    .option("--region <region>", "AWS region of the stack")
    .option("--endpoint <url>", "an SQS endpoint other than AWS's (an emulator)")
    .option("--max <n>", "move at most this many messages")
    .action(async (opts: RedriveCliOptions) => {
      const [
        { physicalNames },
        { makeSqsClient },
        { queueUrlByName },
        { redriveDeadLetters },
        { queueNames },
      ] = await Promise.all([
        import("../../infra/local/resources"),
        import("../../shared/aws/sqs-client"),
        import("../../shared/aws/queue-url"),
        import("../../shared/aws/dead-letter-redrive"),
        import("../../infra/topology"),
      ]);
      const queue = queueNames.find((q) => q === opts.queue);
      if (!queue) throw new InputError(`--queue must be one of ${queueNames.join(", ")} (got ${opts.queue})`);
      const max = opts.max === undefined ? undefined : Number(opts.max);
      if (max !== undefined && !(Number.isInteger(max) && max > 0))
        throw new InputError(`--max must be a positive whole number (got ${opts.max})`);
      const sqs = makeSqsClient(opts.endpoint ? { sqs: opts.endpoint } : {}, opts.region);
      try {
        // The stack names its queues `<stack>-<queue>[-dlq][.fifo]`, as the local runtime does with its prefix.
        const names = physicalNames(`${opts.stack}-`);
        const from = await queueUrlByName(sqs, names.queue(queue, true));
        const to = await queueUrlByName(sqs, names.queue(queue));
        const result = await redriveDeadLetters(sqs, from, to, { max });
        process.stdout.write(
          `${queue}: ${result.moved} moved from the dead-letter queue back to the queue, ${result.failed} refused (left in the DLQ)\n`,
        );
        if (result.failed > 0) process.exitCode = 1;
      } finally {
        sqs.destroy();
      }
    });
}
