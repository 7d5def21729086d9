/**
 * Usage evidence: which query words led which distinct sessions to call which tool. Only stemmed
 * words, tool names and hashed session ids are kept — never arguments, results or raw session ids.
 */

import { fingerprintTool, type ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { hashString } from "../internal/index.js";
import { isQueryKey, queryKey, tokenize } from "../text/index.js";

/** How evidence is counted, decayed and bounded. */
export interface EvidenceOptions {
  /** Distinct sessions a word needs for a tool before it counts (default 3): one session, or one
   * client replaying itself, never moves a ranking alone. */
  minSessions?: number;
  /** Days after which a session's evidence counts half (default 30). */
  halfLifeDays?: number;
  /** Learned words kept per tool (default 24); the least supported go first. */
  maxWordsPerTool?: number;
  /** Sessions remembered per word and tool (default 16): support saturates well before that. */
  maxSessionsPerWord?: number;
  /** Words taken from one query (default 12), besides its key: a long request does not flood a tool. */
  maxWordsPerQuery?: number;
  /** Session entries kept in all (default 100,000, about 3 MB as JSON); the oldest go first. */
  maxEntries?: number;
  /** The clock, in milliseconds (tests pass a fake one). */
  now?: () => number;
}

/** Evidence as plain JSON (`exportLearning()`, the gateway's file, `learning.initial`). */
export interface LearningSnapshot {
  version: 1;
  /** By tool name: the fingerprint of the tool the evidence is about, and per stemmed word the
   * hashed sessions that used it with the time (ms) each last did. */
  tools: Record<string, { fingerprint: string; words: Record<string, Record<string, number>> }>;
}

/** A learned word of a tool: its stem, the decayed count of distinct sessions and its weight. */
export interface LearnedWord {
  word: string;
  sessions: number;
  /** In (0, 1): `sessions / (sessions + minSessions)`, so no amount of traffic passes 1. */
  weight: number;
  /** Distinct requests that used the word (`requestsOf`; 1 for a query key): search counts a
   * word apart from its request only once two requests share it. */
  requests: number;
}

interface ToolEvidence {
  fingerprint: string;
  /** word → session key → last time (ms). */
  words: Map<string, Map<string, number>>;
}

const DAY_MS = 86_400_000;

/** Evidence of use, counted by distinct sessions; see the module comment. */
export class UsageEvidence {
  private readonly tools = new Map<string, ToolEvidence>();
  private readonly minSessions: number;
  private readonly halfLifeMs: number;
  private readonly maxWordsPerTool: number;
  private readonly maxSessionsPerWord: number;
  private readonly maxWordsPerQuery: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private entries = 0;
  /** Bumped on every change, so a reader can tell whether its learned field is stale. */
  version = 0;

  constructor(options?: EvidenceOptions) {
    this.minSessions = positive(options?.minSessions, 3, "minSessions");
    this.halfLifeMs = positive(options?.halfLifeDays, 30, "halfLifeDays") * DAY_MS;
    this.maxWordsPerTool = positive(options?.maxWordsPerTool, 24, "maxWordsPerTool");
    this.maxSessionsPerWord = positive(options?.maxSessionsPerWord, 16, "maxSessionsPerWord");
    this.maxWordsPerQuery = positive(options?.maxWordsPerQuery, 12, "maxWordsPerQuery");
    this.maxEntries = positive(options?.maxEntries, 100_000, "maxEntries");
    this.now = options?.now ?? Date.now;
  }

  /**
   * Records that `session` searched `query` and then called `tool`. The query's words are
   * normalised as search normalises them (stop words out, stemmed) and recorded each, and with
   * them the whole query's key (`queryKey`: its words sorted, for a query of 2–12 words), so a
   * request that recurs is recognised as itself; a tool whose fingerprint changed since its
   * evidence was recorded starts fresh.
   */
  record(query: string, tool: ToolDefinition, session: string): void {
    const words = [...new Set(tokenize(query))].slice(0, this.maxWordsPerQuery);
    if (words.length === 0) return;
    // the whole query too: a recurring request is stronger evidence than its words apart
    const key = queryKey(query);
    if (key !== "") words.push(key);
    const fingerprint = fingerprintTool(tool);
    let evidence = this.tools.get(tool.name);
    if (evidence === undefined || evidence.fingerprint !== fingerprint) {
      if (evidence !== undefined) this.forgetTool(tool.name);
      evidence = { fingerprint, words: new Map() };
      this.tools.set(tool.name, evidence);
    }
    const hashed = sessionKey(session);
    const time = this.now();
    for (const word of words) {
      let sessions = evidence.words.get(word);
      if (sessions === undefined) {
        sessions = new Map();
        evidence.words.set(word, sessions);
      }
      if (!sessions.has(hashed)) this.entries += 1;
      // re-inserting moves the session to the end: the map's order is oldest first
      sessions.delete(hashed);
      sessions.set(hashed, time);
      if (sessions.size > this.maxSessionsPerWord) {
        sessions.delete(sessions.keys().next().value as string);
        this.entries -= 1;
      }
    }
    this.capWords(evidence);
    if (this.entries > this.maxEntries) this.dropOldest();
    this.version += 1;
  }

  /**
   * The words of each tool that have support from at least `minSessions` distinct sessions (after
   * decay), by tool name; tools whose current definition (`current`) has another fingerprint
   * are left out, so a replaced tool's old evidence never counts.
   */
  learnedWords(current?: (name: string) => ToolDefinition | undefined): Map<string, LearnedWord[]> {
    const result = new Map<string, LearnedWord[]>();
    const time = this.now();
    // sessions of the last day count whole toward minSessions: decay is for months of disuse,
    // and without the allowance three sessions stopped counting a second after the third
    const needed = this.minSessions * 0.5 ** (DAY_MS / this.halfLifeMs);
    for (const [name, evidence] of this.tools) {
      if (current !== undefined) {
        const tool = current(name);
        if (tool === undefined || fingerprintTool(tool) !== evidence.fingerprint) continue;
      }
      const words: LearnedWord[] = [];
      for (const [word, sessions] of evidence.words) {
        const support = this.support(sessions, time);
        if (support < needed) continue;
        words.push({
          word,
          sessions: round(support),
          weight: support / (support + this.minSessions),
          requests: isQueryKey(word) ? 1 : requestsOf(evidence.words, word, sessions),
        });
      }
      if (words.length > 0) result.set(name, words.sort(byWeight));
    }
    return result;
  }

  /**
   * Removes one learned word of a tool (the inspector's remove), and the keys of the whole queries
   * that held it, so the word stops counting for the tool in any query; returns false when absent.
   */
  removeWord(tool: string, word: string): boolean {
    const evidence = this.tools.get(tool);
    if (evidence === undefined || !evidence.words.has(word)) return false;
    for (const [learned, sessions] of evidence.words) {
      if (learned !== word && !(isQueryKey(learned) && learned.split(" ").includes(word))) continue;
      this.entries -= sessions.size;
      evidence.words.delete(learned);
    }
    if (evidence.words.size === 0) this.tools.delete(tool);
    this.version += 1;
    return true;
  }

  /** Forgets everything. */
  erase(): void {
    this.tools.clear();
    this.entries = 0;
    this.version += 1;
  }

  /** The evidence as JSON-ready data. */
  toJSON(): LearningSnapshot {
    const tools: LearningSnapshot["tools"] = {};
    for (const [name, evidence] of this.tools) {
      const words: Record<string, Record<string, number>> = {};
      for (const [word, sessions] of evidence.words) words[word] = Object.fromEntries(sessions);
      tools[name] = { fingerprint: evidence.fingerprint, words };
    }
    return { version: 1, tools };
  }

  /** Adds a snapshot's evidence (from `toJSON`); throws naming the first malformed entry. */
  load(snapshot: unknown): void {
    const tools = checkSnapshot(snapshot);
    for (const [name, entry] of Object.entries(tools)) {
      const evidence: ToolEvidence = { fingerprint: entry.fingerprint, words: new Map() };
      for (const [word, sessions] of Object.entries(entry.words)) {
        const ordered = Object.entries(sessions).sort((a, b) => a[1] - b[1]);
        const kept = ordered.slice(-this.maxSessionsPerWord);
        evidence.words.set(word, new Map(kept));
        this.entries += kept.length;
      }
      if (this.tools.has(name)) this.forgetTool(name);
      this.tools.set(name, evidence);
      this.capWords(evidence);
    }
    if (this.entries > this.maxEntries) this.dropOldest();
    this.version += 1;
  }

  private support(sessions: ReadonlyMap<string, number>, time: number): number {
    let support = 0;
    for (const seen of sessions.values())
      support += 0.5 ** (Math.max(0, time - seen) / this.halfLifeMs);
    return support;
  }

  private capWords(evidence: ToolEvidence): void {
    if (evidence.words.size <= this.maxWordsPerTool) return;
    const time = this.now();
    const ranked = [...evidence.words].sort(
      (a, b) => this.support(b[1], time) - this.support(a[1], time) || (a[0] < b[0] ? -1 : 1),
    );
    for (const [word, sessions] of ranked.slice(this.maxWordsPerTool)) {
      evidence.words.delete(word);
      this.entries -= sessions.size;
    }
  }

  private forgetTool(name: string): void {
    const evidence = this.tools.get(name);
    if (evidence === undefined) return;
    for (const sessions of evidence.words.values()) this.entries -= sessions.size;
    this.tools.delete(name);
  }

  /** Drops the oldest session entries until a tenth under the cap (so it runs rarely). */
  private dropOldest(): void {
    const times: number[] = [];
    for (const evidence of this.tools.values())
      for (const sessions of evidence.words.values())
        for (const time of sessions.values()) times.push(time);
    times.sort((a, b) => a - b);
    const cutoff =
      times[times.length - Math.floor(this.maxEntries * 0.9)] ?? Number.POSITIVE_INFINITY;
    for (const [name, evidence] of this.tools) {
      for (const [word, sessions] of evidence.words) {
        for (const [key, time] of sessions) {
          if (time >= cutoff) continue;
          sessions.delete(key);
          this.entries -= 1;
        }
        if (sessions.size === 0) evidence.words.delete(word);
      }
      if (evidence.words.size === 0) this.tools.delete(name);
    }
  }
}

/**
 * How many distinct requests used `word` for a tool: the tool's query keys that hold it, and one
 * more when some of its sessions are in none of those keys (a one-word query, or a request too
 * long for a key; several such count as one, so the count errs low).
 */
function requestsOf(
  words: ReadonlyMap<string, ReadonlyMap<string, number>>,
  word: string,
  sessions: ReadonlyMap<string, number>,
): number {
  let count = 0;
  const explained = new Set<string>();
  for (const [key, keySessions] of words) {
    if (!isQueryKey(key) || !key.split(" ").includes(word)) continue;
    count += 1;
    for (const session of keySessions.keys()) explained.add(session);
  }
  for (const session of sessions.keys()) if (!explained.has(session)) return count + 1;
  return count;
}

function byWeight(a: LearnedWord, b: LearnedWord): number {
  return b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Session ids are hashed before they are kept: evidence says "a session", never which. */
function sessionKey(session: string): string {
  return hashString(`session\u0000${session}`);
}

function positive(value: number | undefined, fallback: number, label: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ToolsiftError(
      "invalid_option",
      `learning.${label} must be a positive number; got ${String(value)}.`,
    );
  }
  return value;
}

function checkSnapshot(snapshot: unknown): LearningSnapshot["tools"] {
  const fail = (where: string): never => {
    throw new ToolsiftError(
      "invalid_option",
      `Learning snapshot is malformed at ${where}: pass what exportLearning() returned (or erase the file).`,
    );
  };
  if (snapshot === null || typeof snapshot !== "object") return fail("the top level");
  const { version, tools } = snapshot as Partial<LearningSnapshot>;
  if (version !== 1) fail(`"version" (expected 1, got ${JSON.stringify(version)})`);
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) return fail('"tools"');
  for (const [name, entry] of Object.entries(tools)) {
    if (entry === null || typeof entry !== "object" || typeof entry.fingerprint !== "string")
      fail(`tools["${name}"].fingerprint`);
    if (entry.words === null || typeof entry.words !== "object") fail(`tools["${name}"].words`);
    for (const [word, sessions] of Object.entries(entry.words)) {
      if (sessions === null || typeof sessions !== "object")
        fail(`tools["${name}"].words["${word}"]`);
      for (const [key, time] of Object.entries(sessions))
        if (typeof time !== "number" || !Number.isFinite(time))
          fail(`tools["${name}"].words["${word}"]["${key}"]`);
    }
  }
  return tools;
}
