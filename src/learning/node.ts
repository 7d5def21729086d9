// Owns: the learning file (Node only; not in the root entry).
// Must not import: anything in src outside learning/, errors.ts and internal/.

export {
  defaultLearningFile,
  eraseLearningFile,
  MAX_LEARNING_FILE_BYTES,
  readLearningFile,
  writeLearningFile,
} from "./learning-file.js";
export {
  keepLearningFile,
  type LearningFileKeeper,
  type LearningFileKeeperOptions,
} from "./learning-file-keeper.js";
