// Owns: usage evidence (which query words led distinct sessions to call which tool), pairing
// searches with calls, and its JSON snapshot. Must not import: search, disclosure, providers, mcp, cli.
export {
  type EvidenceOptions,
  type LearnedWord,
  type LearningSnapshot,
  UsageEvidence,
} from "./usage-evidence.js";
export { type LearnedSink, type LearningOptions, UsageLearning } from "./usage-learning.js";
export { DEFAULT_WINDOW_MS, type RecorderOptions, UsageRecorder } from "./usage-recorder.js";
