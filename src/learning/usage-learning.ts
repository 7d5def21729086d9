/**
 * Learning as a facade or gateway runs it: evidence, the recorder that feeds it, and when to
 * hand the learned words to the search index (at most once a second while evidence changes, so
 * a busy session does not recompute them per call).
 */

import type { ToolDefinition } from "../catalog/index.js";
import {
  type EvidenceOptions,
  type LearnedWord,
  type LearningSnapshot,
  UsageEvidence,
} from "./usage-evidence.js";
import { type RecorderOptions, UsageRecorder } from "./usage-recorder.js";

/** The `learning` option: how evidence is counted, and evidence to start from. */
export interface LearningOptions extends EvidenceOptions, Pick<RecorderOptions, "windowMs"> {
  /** Evidence to start from: what `exportLearning()` (or the gateway's file) returned. */
  initial?: LearningSnapshot;
  /** Set apart this process's session ids from other processes' (the gateway passes a random
   * one per start): a stdio gateway's only session is always "stdio", yet each run of it is
   * another session. */
  sessionScope?: string;
}

/** Where learned words go: the search index's `setLearned`. */
export type LearnedSink = (words: Map<string, LearnedWord[]>) => void;

const REFRESH_MS = 1_000;

/** Evidence plus recorder, keeping a search index's learned field up to date. */
export class UsageLearning {
  readonly evidence: UsageEvidence;
  readonly recorder: UsageRecorder;
  /** `options.sessionScope`: prefixed to every session id before it is recorded. */
  readonly sessionScope: string | undefined;
  private applied = -1;
  private appliedAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;

  constructor(
    options: LearningOptions,
    private readonly current: (name: string) => ToolDefinition | undefined,
    private readonly sink: LearnedSink,
  ) {
    const { initial, windowMs, sessionScope, ...evidenceOptions } = options;
    this.sessionScope = sessionScope;
    this.evidence = new UsageEvidence(evidenceOptions);
    if (initial !== undefined) this.evidence.load(initial);
    this.now = options.now ?? Date.now;
    this.recorder = new UsageRecorder(this.evidence, {
      ...(windowMs !== undefined ? { windowMs } : {}),
      now: this.now,
    });
    this.refresh(true);
  }

  /**
   * Hands changed evidence to the index: now when `force` (the catalog changed, a word was
   * removed), else at most once every second.
   */
  refresh(force = false): void {
    if (!force && this.applied === this.evidence.version) return;
    if (!force && this.now() - this.appliedAt < REFRESH_MS) return;
    this.applied = this.evidence.version;
    this.appliedAt = this.now();
    this.sink(this.evidence.learnedWords(this.current));
  }
}
