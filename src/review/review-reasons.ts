// The preset reasons a reviewer picks from (docs/console-api.md "Preset reasons"), beside the
// mandatory free text. Pure data: the console's browser app imports it too.
export const REASON_CODES = [
  'documents_verified_manually',
  'face_confirmed_manually',
  'data_mismatch_explained',
  'document_not_genuine',
  'face_does_not_match',
  'suspected_fraud',
  'poor_image_quality',
  'other',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];
