// Every error the API answers with, by stable code (design.md "Errors"). The body is always
// { error: <code>, message: <text> } plus `details` for validation; 401 and 403 bodies are exactly
// those of interface §7. docs and the OpenAPI document are generated from this table.
export const ERRORS = {
  BadRequest: { status: 400, message: 'The request body is not valid JSON' },
  ValidationFailed: { status: 400, message: 'The request is not valid' },
  Unauthorized: { status: 401, message: 'Invalid or missing API key' },
  Forbidden: { status: 403, message: 'Access denied to this resource' },
  NotFound: { status: 404, message: 'Not found' },
  SessionNotSubmitted: { status: 409, message: 'The session has no submission to process yet' },
  SessionDataErased: {
    status: 409,
    message: "The session's images and personal data were erased after the tenant's retention period",
  },
  DecisionFinal: { status: 409, message: "A reviewer's decision is final" },
  SessionNotCancellable: {
    status: 409,
    message: 'Only an unfinished session can be cancelled; this one was submitted, expired or failed',
  },
  SessionNotRedactable: {
    status: 409,
    message: 'A session can be redacted once it is decided (approved or rejected), expired or failed',
  },
  PayloadTooLarge: { status: 413, message: 'The request body is too large' },
  UriTooLong: { status: 414, message: 'The request URL is too long' },
  UnsupportedMediaType: { status: 415, message: 'The request body must be application/json' },
  CallbackUrlNotAllowed: { status: 422, message: "callbackUrl is not on the tenant's allow list" },
  TooManyRequests: { status: 429, message: 'Too many requests' },
  // Hosted flow (issue 5): the end user's browser, not the tenant's server.
  FlowSessionRequired: { status: 401, message: 'Open the verification link again to continue' },
  CsrfTokenInvalid: { status: 403, message: 'The request did not carry a valid CSRF token' },
  SessionExpired: { status: 410, message: 'This verification session has expired' },
  FlowStepOutOfOrder: { status: 409, message: 'This step cannot be done now' },
  DocumentTypeNotAllowed: { status: 422, message: 'This document type is not accepted' },
  ImageTypeUnsupported: { status: 415, message: 'The image must be a JPEG, PNG or WebP file' },
  ImageTooLarge: { status: 413, message: 'The image is larger than 10 MB' },
  ImageUnreadable: { status: 422, message: 'The image could not be read' },
  ImageTooManyPixels: { status: 422, message: 'The image has too many pixels' },
  ImageTooSmall: { status: 422, message: 'The image is too small' },
  ImageBlurred: { status: 422, message: 'The image is blurred' },
  ImageGlare: { status: 422, message: 'The image has glare' },
  DocumentNotFound: { status: 422, message: 'No document was found in the image' },
  DocumentIsSelfie: { status: 422, message: 'The image shows a face, not an identity document' },
  DocumentNotRecognised: { status: 422, message: 'The image shows no supported identity document' },
  DocumentTypeMismatch: { status: 422, message: 'The image shows another type of document than chosen' },
  DocumentSideMismatch: { status: 422, message: 'The image shows the front of the document, not its back' },
  LivenessChallengeInvalid: { status: 409, message: 'The face check challenge is unknown, used or expired' },
  LivenessAttemptsExhausted: { status: 409, message: 'No face check attempts are left' },
  LivenessAttemptInProgress: {
    status: 409,
    message: 'A face check attempt of this session is being verified; wait for its answer',
  },
  // Console and review (issue 8, docs/console-api.md).
  ConsoleLoginRequired: { status: 401, message: 'Sign in to the console to continue' },
  ConsoleLoginFailed: { status: 401, message: 'The e-mail address or password is wrong' },
  ConsoleAccountLocked: { status: 429, message: 'Too many failed sign-ins; try again later' },
  PasswordLinkInvalid: { status: 410, message: 'This password link is used, expired or unknown' },
  EmailTaken: { status: 409, message: 'A console user with this e-mail address exists' },
  SessionNotPendingReview: { status: 409, message: 'The session is not waiting for a review' },
  ReviewClaimed: { status: 409, message: 'Another reviewer is working on this case' },
  ReviewClaimRequired: { status: 409, message: 'Claim the case before deciding it' },
  SecondReviewerRequired: { status: 409, message: 'A different reviewer must confirm this decision' },
  WebhookEventBusy: { status: 409, message: 'This webhook event is being delivered right now; try again' },
  InternalError: { status: 500, message: 'Something went wrong on our side' },
  ServiceUnavailable: { status: 503, message: 'The service is not ready' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
