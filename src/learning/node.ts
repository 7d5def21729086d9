// Owns: the learning file (Node only; not in the root entry).
// Must not import: anything in src outside learning/, errors.ts and internal/.
export {
  eraseLearningFile,
  MAX_LEARNING_FILE_BYTES,
  readLearningFile,
  writeLearningFile,
} from "./learning-file.js";
