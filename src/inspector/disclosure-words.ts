/** Says a plan's disclosure reason in words a new user reads, with the numbers formatted. */

const number = (text: string) => Number(text).toLocaleString("en");

/** Each reason `decideActivation` gives, as a pattern and its sentence. */
const SENTENCES: readonly [RegExp, (...parts: string[]) => string][] = [
  [
    /^auto: deferrable definitions take (\d+) tokens \(ceiling (\d+)\)$/,
    (tokens, ceiling) =>
      `Search is on: the tools toolsift can hold back take ${number(tokens)} tokens, more than the ${number(ceiling)} it sends whole, so the model gets a search tool and loads what it finds.`,
  ],
  [
    /^auto: deferrable definitions take (.+) of the context window \(threshold (.+)\)$/,
    (share, threshold) =>
      `Search is on: the tools toolsift can hold back would fill ${share} of the context window (it holds them back from ${threshold}).`,
  ],
  [
    /^auto: all definitions take (\d+) tokens, over the definitions budget of (\d+)$/,
    (tokens, budget) =>
      `Search is on: all definitions take ${number(tokens)} tokens, over your definitions budget of ${number(budget)}.`,
  ],
  [
    /^auto: (\d+) visible tools, over the provider's limit of (\d+) tools per request$/,
    (visible, most) =>
      `Search is on: ${number(visible)} visible tools are more than the provider takes in one request (${number(most)}).`,
  ],
  [
    /^auto: (\d+) visible tools \(threshold (\d+)\)$/,
    (visible, threshold) =>
      `Search is on: ${number(visible)} tools are visible, and toolsift holds tools back from ${number(threshold)}.`,
  ],
  [
    /^auto: below threshold \((.*)\)$/,
    (detail) =>
      `Search is off: the tools are small enough to send whole (${detail.replaceAll(/\d{4,}/g, number)}).`,
  ],
  [
    /^mode on: (\d+) tools deferred$/,
    (deferred) =>
      `Search is on (mode "on"): ${number(deferred)} ${deferred === "1" ? "tool waits" : "tools wait"} behind the search tool.`,
  ],
  [/^mode off: /, () => `Search is off (mode "off"): the model gets every visible tool whole.`],
  [
    /^no deferrable tools: /,
    () => "Search is off: every visible tool is a core tool, so all are sent whole.",
  ],
];

/** The sentence for `reason`; a reason this table does not know is returned as it is. */
export function disclosureInWords(reason: string): string {
  for (const [pattern, sentence] of SENTENCES) {
    const match = pattern.exec(reason);
    if (match) return sentence(...match.slice(1));
  }
  return reason;
}
