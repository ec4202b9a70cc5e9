/**
 * The tables' capacity mode is a deploy setting: on demand by default (test/infra/stack.test.ts checks
 * the whole stack that way), provisioned with auto scaling (target tracking on reads and writes of every
 * table and index) when the settings ask. The topology's tables alone in a stack, cdk-nag included.
 */
import { App, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { describe, expect, it } from "vitest";
import { deploySettings } from "../../infra/deploy-settings";
import { tableNames, topology } from "../../infra/topology";
import { topologyTable } from "../../infra/topology-table";

function synth(settings: Record<string, unknown>) {
  const stack = new Stack(new App(), "Tables");
  const { capacity } = deploySettings(settings);
  for (const name of tableNames) topologyTable(stack, name, name, capacity);
  return { stack, template: Template.fromStack(stack) };
}

const indexCount = Object.values(topology.tables).reduce(
  (n, t) => n + Object.keys(t.indexes ?? {}).length,
  0,
);
const nagFindings = (stack: Stack) =>
  new AwsSolutionsChecks(undefined, { verbose: true })
    .validateScope(stack)
    .violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(", ")}`);

describe("capacity mode", () => {
  it("is on demand by default, with nothing to scale", () => {
    const { stack, template } = synth({});
    for (const t of Object.values(template.findResources("AWS::DynamoDB::Table")))
      expect(t.Properties.BillingMode).toBe("PAY_PER_REQUEST");
    template.resourceCountIs("AWS::ApplicationAutoScaling::ScalableTarget", 0);
    expect(nagFindings(stack)).toEqual([]);
  });

  it("provisions every table and index at its minimum and scales reads and writes on utilisation", () => {
    const { stack, template } = synth({
      capacity_mode: "provisioned",
      provisioned_capacity: {
        read_min: 2,
        read_max: 50,
        write_min: 3,
        write_max: 80,
        target_utilization_percent: 65,
      },
    });
    const tables = Object.values(template.findResources("AWS::DynamoDB::Table"));
    for (const t of tables) {
      expect(t.Properties.BillingMode ?? "PROVISIONED").toBe("PROVISIONED"); // CloudFormation's default
      expect(t.Properties.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 2, WriteCapacityUnits: 3 });
      for (const gsi of (t.Properties.GlobalSecondaryIndexes ?? []) as { ProvisionedThroughput: unknown }[])
        expect(gsi.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 2, WriteCapacityUnits: 3 });
    }
    const targets = Object.values(template.findResources("AWS::ApplicationAutoScaling::ScalableTarget"));
    // Reads and writes of every table and every index.
    expect(targets).toHaveLength(2 * (tableNames.length + indexCount));
    const bounds = targets.map((t) => [
      (t.Properties.ScalableDimension as string).split(":").pop(),
      t.Properties.MinCapacity,
      t.Properties.MaxCapacity,
    ]);
    expect(new Set(bounds.map((b) => JSON.stringify(b)))).toEqual(
      new Set([JSON.stringify(["ReadCapacityUnits", 2, 50]), JSON.stringify(["WriteCapacityUnits", 3, 80])]),
    );
    const policies = Object.values(template.findResources("AWS::ApplicationAutoScaling::ScalingPolicy"));
    expect(policies).toHaveLength(targets.length);
    for (const p of policies) {
      expect(p.Properties.PolicyType).toBe("TargetTrackingScaling");
      expect(
        (p.Properties.TargetTrackingScalingPolicyConfiguration as { TargetValue: number }).TargetValue,
      ).toBe(65);
    }
    expect(nagFindings(stack)).toEqual([]);
  });

  it("refuses provisioned bounds without provisioned mode, a minimum above its maximum and a target outside 20–90", () => {
    expect(() => deploySettings({ provisioned_capacity: { read_min: 1 } })).toThrow(
      /provisioned_capacity applies only with "capacity_mode": "provisioned"/,
    );
    expect(() =>
      deploySettings({ capacity_mode: "provisioned", provisioned_capacity: { write_min: 10, write_max: 5 } }),
    ).toThrow(/write_min is above write_max/);
    expect(() =>
      deploySettings({
        capacity_mode: "provisioned",
        provisioned_capacity: { target_utilization_percent: 95 },
      }),
    ).toThrow(/target_utilization_percent/);
    expect(() => deploySettings({ capacity_mode: "reserved" })).toThrow(/capacity_mode/);
    expect(deploySettings({}).capacity).toEqual({ mode: "on_demand" });
    expect(deploySettings({ capacity_mode: "provisioned" }).capacity).toEqual({
      mode: "provisioned",
      read_min: 1,
      read_max: 200,
      write_min: 1,
      write_max: 200,
      target_utilization_percent: 70,
    });
  });
});
