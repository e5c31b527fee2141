// The flow's state as GET /verify/api/state answers it (docs/hosted-flow-api.md): the one
// definition the server fills (flow-steps.ts), the browser app reads (web/verify/flow-api.ts) and
// the headless client of `mimoto simulate` reads. Types only, from modules that import nothing
// node-only, so the browser bundle can import it.
import type { DocumentType } from '../documents/index.ts';
import type { Language } from './flow-messages.ts';
import type { UserInputField } from './user-input-fields.ts';

/** What the user typed, as stored: a field left empty is absent. */
export type FlowPersonalData = Partial<Record<UserInputField, string>>;

export interface FlowState {
  sessionId: string;
  status: string;
  language: Language;
  csrfToken: string;
  expiresAt: string;
  /** How the person may verify: photos of a document (image), reading its IC chip (ic_chip), or either. */
  verificationMethods: ('image' | 'ic_chip')[];
  allowedDocumentTypes: DocumentType[];
  requiredUserInputFields: UserInputField[];
  documentType: DocumentType | null;
  steps: {
    consent: boolean;
    documentType: boolean;
    front: boolean;
    /** null when the chosen document has no back side (passport) or none is chosen. */
    back: boolean | null;
    /**
     * The card held tilted, its edge showing (the tenant's thickness capture); null when the tenant
     * does not ask for it, the document has no card edge (passport), or none is chosen.
     */
    tilted: boolean | null;
    liveness: { status: 'pending' | 'success' | 'failed'; attemptsUsed: number; attemptsLeft: number };
    personalData: boolean;
    submitted: boolean;
    /** A chip reader handed in a usable reading (chip-reader.ts); null when the chip is not offered. */
    chip: boolean | null;
  };
  /** What the user typed, for the review screen (null before). */
  personalData: FlowPersonalData | null;
  /**
   * What the capture check read with confidence on the front, to prefill the form (null: nothing;
   * never kana).
   */
  documentReading: Pick<FlowPersonalData, 'lastName' | 'firstName' | 'birthDate' | 'address'> | null;
  /** Who asks: the tenant's display name, accent colour and logo address (on our origin). */
  tenant: { displayName: string; accentColor: string | null; logoUrl: string | null };
  /** Where the browser goes once submitted (null before). */
  redirectTo: string | null;
}
