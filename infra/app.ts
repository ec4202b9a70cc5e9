/**
 * The CDK app: `npx cdk synth` (cdk.json runs `npx tsx infra/app.ts`). Environment-agnostic, no
 * lookups. Context: `-c sources=FILE` (default sources.example.json at the repo root, if present),
 * `-c <function>Schedule="cron(...)"` per schedule-triggered function (e.g. discoverSchedule),
 * `-c stackName=NAME` (default Storytrail), `-c settings=FILE` (crawl settings, infra/deploy-settings.ts:
 * the User-Agent with your contact, host delay, raw-sample rate, LSH retention, canonical partners).
 */
import path from "node:path";
import { App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { settingsContext } from "./deploy-settings";
import { scheduleContext } from "./schedule-inputs";
import { StorytrailStack } from "./stack";
import { functionNames, topology } from "./topology";

const projectRoot = path.resolve(import.meta.dirname, "..");
const app = new App();
const scheduled = functionNames.filter((fn) => topology.functions[fn].trigger.kind === "schedule");
const { schedules, sources } = scheduleContext((key) => app.node.tryGetContext(key), scheduled, projectRoot);
const stackName: unknown = app.node.tryGetContext("stackName");
const settings = settingsContext((key) => app.node.tryGetContext(key), projectRoot);

new StorytrailStack(app, typeof stackName === "string" && stackName ? stackName : "Storytrail", {
  description: "storytrail: news sitemaps and feeds in, deduplicated story clusters out",
  projectRoot,
  schedules,
  // Discovery is the function whose schedules carry the sources (see infra/schedule-inputs.ts).
  scheduleSources: { discover: sources },
  settings,
});

// cdk-nag v3 is a policy-validation plugin: any unacknowledged finding fails the synth.
Validations.of(app).addPlugins(
  new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }),
);
