// What the hosted flow adds to GET /v1/verification-sessions/{id} (interface §2.3–2.5): the typed
// user input, the document flags with image URLs (which need the API key), and the live face
// check's outcome.
import { decryptJson } from '../platform/crypto/encryption.ts';
import type { Platform } from '../platform/platform.ts';
import type { SessionRow } from '../sessions/index.ts';
import { hasBackSide } from './document-types.ts';
import { listDocuments } from './hosted-flow-repository.ts';
import { sessionImageUrl } from './session-images.routes.ts';
import { type UserInput, userInputContext } from './user-input.ts';

export interface FlowDetail {
  userInput: UserInput | null;
  documents: {
    frontUploaded: boolean;
    backUploaded: boolean;
    frontImageUrl?: string;
    backImageUrl?: string;
  } | null;
  liveness: { status: string; confidence?: number; referenceImageUrl?: string } | null;
}

export async function readFlowDetail(platform: Platform, session: SessionRow): Promise<FlowDetail> {
  const { publicUrl } = platform.config;
  const documents = session.document_type ? await listDocuments(platform.database.db, session.id) : [];
  const front = documents.some((d) => d.side === 'front');
  const back = documents.some((d) => d.side === 'back');
  return {
    userInput: session.user_input_enc
      ? decryptJson<UserInput>(platform.keyring, session.user_input_enc, userInputContext(session.id))
      : null,
    documents: session.document_type
      ? {
          frontUploaded: front,
          backUploaded: hasBackSide(session.document_type) ? back : false,
          ...(front ? { frontImageUrl: sessionImageUrl(publicUrl, session.id, 'front') } : {}),
          ...(back ? { backImageUrl: sessionImageUrl(publicUrl, session.id, 'back') } : {}),
        }
      : null,
    // success / failed once decided; in_progress while attempts are left (design: null before any).
    liveness:
      session.liveness_attempts > 0 || session.liveness_status
        ? {
            status: session.liveness_status ?? 'in_progress',
            ...(session.liveness_status ? { confidence: session.liveness_confidence ?? 0 } : {}),
            ...(session.liveness_reference_blob
              ? { referenceImageUrl: sessionImageUrl(publicUrl, session.id, 'liveness-reference') }
              : {}),
          }
        : null,
  };
}
