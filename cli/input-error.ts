/**
 * Bad input from the user (a file, a flag, an environment setting): the CLI prints the message alone,
 * without a stack trace, and exits with 2, the code shells use for misuse.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** Exit code for bad input (as `grep` and `curl` use it); 1 stays for failures of the run itself. */
export const INPUT_ERROR_EXIT_CODE = 2;
