/** Builds a DynamoDB UpdateExpression that SETs the given attributes (undefined ones are skipped). */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

export function setExpression(
  fields: Readonly<Record<string, unknown>>,
  extra: { add?: Record<string, unknown> } = {},
): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  let i = 0;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    names[`#f${i}`] = key;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
    i++;
  }
  const adds: string[] = [];
  for (const [key, value] of Object.entries(extra.add ?? {})) {
    names[`#f${i}`] = key;
    values[`:v${i}`] = value;
    adds.push(`#f${i} :v${i}`);
    i++;
  }
  const parts = [sets.length ? `SET ${sets.join(", ")}` : "", adds.length ? `ADD ${adds.join(", ")}` : ""];
  return {
    UpdateExpression: parts.filter(Boolean).join(" "),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
