// The fraudSignalAnalysis check as the pipeline uses it.
export {
  ageOn,
  analyzeFraudSignals,
  type BlacklistHit,
  type FraudAnalysis,
  type FraudFacts,
  type FraudSignal,
  fraudSignalsCheck,
  MIN_HUMAN_FLOW_SECONDS,
  MIN_LIVENESS_SECONDS,
  type SameDocumentSession,
  type SameFaceSession,
  SESSIONS_PER_IP_HOUR,
  type Severity,
} from './analyze-fraud-signals.ts';
export {
  type BlacklistConditions,
  type BlacklistEntry,
  type BlacklistLookup,
  findBlacklistHits,
  listBlacklistEntries,
  matchBlacklistEntry,
  normalizeDocumentNumber,
  openBlacklistEntry,
  sealBlacklistEntry,
} from './blacklist.ts';
export {
  countBlacklistRows,
  deleteBlacklistRow,
  findBlacklistRow,
  insertBlacklistRow,
  MAX_BLACKLIST_ENTRIES,
  updateBlacklistRow,
} from './blacklist-repository.ts';
export { FRAUD_SIGNALS_VERSION, fraudSignalsDefinition } from './definition.ts';
