/** A local run's function settings: the command's defaults, the environment's STORYTRAIL_* over them, the
 * flags' fixed values over both, validated before anything starts. */
import { expect, it } from "vitest";
import { functionSettings } from "../../cli/function-settings";
import { InputError } from "../../cli/input-error";

it("takes every STORYTRAIL_* setting of the environment over the defaults, and the fixed values over both", () => {
  const s = functionSettings(
    { STORYTRAIL_HOT_DAYS: "7", STORYTRAIL_MIN_HOST_DELAY_MS: "10", HOME: "/root", STORYTRAIL_NOW: "" },
    { STORYTRAIL_MIN_HOST_DELAY_MS: "50", STORYTRAIL_RAW_SAMPLE_RATE: "1" },
    { STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true" },
  );
  expect(s).toEqual({
    STORYTRAIL_HOT_DAYS: "7",
    STORYTRAIL_MIN_HOST_DELAY_MS: "10",
    STORYTRAIL_RAW_SAMPLE_RATE: "1",
    STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
  });
});

it("refuses a malformed setting with its name", () => {
  const err = (() => {
    try {
      functionSettings({ STORYTRAIL_HOT_DAYS: "0" }, {});
    } catch (e) {
      return e;
    }
  })();
  expect(err).toBeInstanceOf(InputError);
  expect((err as Error).message).toMatch(/^invalid setting in the environment: STORYTRAIL_HOT_DAYS: /);
});
