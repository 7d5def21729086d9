// Placeholder until the budget module merges.
export async function runTruncationBench(): Promise<Record<string, number>> {
  return {};
}
