/** A deployed stack's output by key (the CLI finds a stack's tables this way: their names are CloudFormation's). */
import { CloudFormationClient, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";

export async function stackOutput(stackName: string, key: string, region?: string): Promise<string> {
  const cfn = new CloudFormationClient(region ? { region } : {});
  try {
    const out = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    const value = out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
    if (!value) throw new Error(`stack ${stackName} has no output ${key} (deployed from an older version?)`);
    return value;
  } finally {
    cfn.destroy();
  }
}
