/**
 * A folder given as a local run's `--data-dir` whose tables are not a run's (DynamoDB Local answers
 * ResourceNotFoundException for them). The CLI reports it like bad input: the message alone, exit 2.
 */
export class NotARunError extends Error {
  constructor(dataDir: string, table: string) {
    super(
      `${dataDir} holds no ${table} table: it is not a folder storytrail crawl, demo or import wrote;\ngive --data-dir the folder such a run was given`,
    );
    this.name = "NotARunError";
  }
}

/** Whether `err` is DynamoDB's answer for a table that does not exist (by name: the SDK stays out). */
export function isMissingTable(err: unknown): boolean {
  return err instanceof Error && err.name === "ResourceNotFoundException";
}
