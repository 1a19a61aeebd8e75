// Scoring, the second stage of an ingestor (README.md: the formula, each signal, the model).
export {parseScoringRules, DEFAULT_RULES} from './rules.js';
export {scoreStatuses} from './score.js';
export {statusFingerprints} from './fingerprint.js';
export {engagementOf, median} from './signals/engagement.js';
export {openModelJudge, BATCH, type ModelJudgeOptions} from './model-judge.js';
