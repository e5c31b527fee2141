// EXTENSION POINT — tenant blacklists (issue 6 item 2: entries by name + birth date, document
// number or face; matchMode exact|fuzzy; action reject|review). No blacklist store exists yet, so
// this finds nothing; whoever adds the store implements this one function (the pipeline already
// passes its hits to analyzeFraudSignals, which reports them as signals and as
// decision.metadata blacklistMatches / blacklistAction / blacklistCheckedAt).
import type { BlacklistHit } from './analyze-fraud-signals.ts';

export interface BlacklistLookup {
  tenantId: string;
  lastName?: string;
  firstName?: string;
  birthDate?: string;
  documentNumber?: string;
  selfieDescriptor?: Float32Array;
}

export async function findBlacklistHits(_lookup: BlacklistLookup): Promise<BlacklistHit[]> {
  return [];
}
