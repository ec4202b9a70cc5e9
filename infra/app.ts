/**
 * The CDK app: `npx cdk synth` (cdk.json runs `npx tsx infra/app.ts`). Environment-agnostic, no
 * lookups. Context: `-c <function>Schedule="cron(...)"` per schedule-triggered function (the dispatcher's
 * tick, the quality report), `-c discoverSchedule="cron(...)"` (the cadence of sources that name none;
 * default daily at 05:00 UTC), `-c stackName=NAME` (default Storytrail), `-c settings=FILE` (crawl
 * settings, infra/deploy-settings.ts: the User-Agent with your contact, host delay, raw-sample rate, LSH
 * retention, canonical partners). Sources are data: `storytrail sources push FILE --stack NAME` after the
 * deploy; `-c sources=FILE` is validated and answered with that command (infra/schedule-context.ts).
 */
import path from "node:path";
import { Annotations, App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { settingsContext } from "./deploy-settings";
import { scheduleContext } from "./schedule-context";
import { StorytrailStack } from "./stack";
import { functionNames, topology } from "./topology";

const projectRoot = path.resolve(import.meta.dirname, "..");
const app = new App();
const scheduled = functionNames.filter((fn) => topology.functions[fn].trigger.kind === "schedule");
const { schedules, defaultSourceSchedule, sourcesWarning } = scheduleContext(
  (key) => app.node.tryGetContext(key),
  scheduled,
  projectRoot,
);
const stackName: unknown = app.node.tryGetContext("stackName");
const settings = settingsContext((key) => app.node.tryGetContext(key), projectRoot);

const stack = new StorytrailStack(
  app,
  typeof stackName === "string" && stackName ? stackName : "Storytrail",
  {
    description: "storytrail: news sitemaps and feeds in, deduplicated story clusters out",
    projectRoot,
    schedules,
    ...(defaultSourceSchedule ? { defaultSourceSchedule } : {}),
    settings,
  },
);
if (sourcesWarning) Annotations.of(stack).addWarningV2("storytrail:sources", sourcesWarning);

// cdk-nag v3 is a policy-validation plugin: any unacknowledged finding fails the synth.
Validations.of(app).addPlugins(
  new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }),
);
