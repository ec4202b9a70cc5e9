/**
 * quality λ (scheduled): per-publisher extraction quality. A stub for now: it reports that it is not
 * built yet, so nobody mistakes silence for health. See the README's "Not built yet" section.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import type { Env } from "../shared/aws/function-env";

const logger = new Logger({ serviceName: "storytrail-quality" });

export function createQualityHandler(_env: Env) {
  return async (): Promise<{ status: "not_built" }> => {
    logger.warn("quality checks are not built yet: no per-publisher metrics were computed");
    return { status: "not_built" };
  };
}

let cached: ReturnType<typeof createQualityHandler> | undefined;
export const handler = () => {
  cached ??= createQualityHandler(process.env);
  return cached();
};
