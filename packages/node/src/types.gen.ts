// Generated from the service's OpenAPI document by scripts/generate-types.ts. Do not edit:
// change the route schemas, then regenerate (packages/node/README.md "Types").
/* eslint-disable */

export type ErrorBody = {
  /** Stable error code (see the error table in /docs) */
  error: string;
  message: string;
  details?: Array<{
    path: string;
    message: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
};

export type WebhookAutomaticDecision = {
  /** Event kind (API reference §6.1); always verification.<status> */
  event: "verification.approved" | "verification.rejected" | "verification.pending_review";
  /** Equal to the sessionId */
  verificationId: string;
  tenantId: string;
  /** approved / rejected / pending_review */
  status: "approved" | "rejected" | "pending_review";
  decision: {
    /** Equals the top-level status */
    status: "approved" | "rejected" | "pending_review";
    /** Machine reason code (API reference §6.2) (known values: all_checks_passed, face_mismatch, face_similarity_near_threshold, low_ocr_confidence, document_spoof_detected, document_spoof_suspected, selfie_spoof_detected, selfie_spoof_suspected, face_injection_suspected, liveness_failed, fraud_detected, fraud_suspected, blacklist_match, pre_registered_info_mismatch, user_input_mismatch, document_type_mismatch, unsupported_document_type, document_expired, chip_signature_invalid, chip_chain_untrusted, chip_data_group_hash_mismatch, chip_clone_suspected, chip_anti_clone_unavailable, chip_data_group_missing, chip_mrz_invalid; others may be added) */
    reason: string;
    /** API reference §2.8 */
    metadata: {
      faceMatchSimilarity?: number;
      livenessConfidence?: number;
      documentSpoofRisk?: string;
      ocrConfidence?: number;
      threshold?: number;
      blacklistAction?: string;
      blacklistMatches?: Array<{
        id?: string;
        label?: string;
        matchMode?: string;
        action?: string;
        conditionCount?: number;
        [key: string]: unknown;
      }>;
      /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
      blacklistCheckedAt?: string;
      detail?: string;
      confidence?: number;
      documentStatus?: string;
      selfieStatus?: string;
      score?: number;
      similarity?: number;
      documentSpoofCheckRisk?: string;
      expectedDocumentType?: string;
      detectedDocumentType?: string;
      detectedDocumentTypeConfidence?: number;
      riskScore?: number;
      signals?: Array<{
        type?: string;
        severity?: string;
        message?: string;
        code?: string;
        [key: string]: unknown;
      }>;
      fraudScore?: number;
      mismatchedFields?: string[];
      userInputMatch?: boolean;
      /** true/false per compared field (lastName, firstName, birthDate, address) */
      preRegisteredInfoMatch?: {
        [key: string]: unknown;
      };
      injectionSignals?: Array<"screen_light_not_reflected" | "virtual_camera" | "camera_settings_mismatch">;
      /** ic_chip when the person was verified by reading the document's IC chip */
      verificationMethod?: string;
      /** After a review: the reviewer's reason code (review.reasonCode) (known values: documents_verified_manually, face_confirmed_manually, data_mismatch_explained, new_capture_requested, document_unreadable, document_expired, document_suspicious, face_mismatch, person_not_present, data_mismatch, suspected_fraud, other; others may be added) */
      reviewReasonCode?: string;
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  /** Subset of API reference §2.9; may be {} after manual review */
  results: {
    /** API reference §2.6 */
    ocr?: {
      success?: boolean;
      confidence?: number;
      payload?: {
        lastName?: string;
        firstName?: string;
        birthDate?: string;
        address?: string;
        [key: string]: unknown;
      };
      reason?: string;
      /** values seen: success, low_confidence */
      status?: string;
      provider?: string;
      model?: string;
      detectedDocumentType?: string;
      detectedDocumentTypeConfidence?: number;
      unsupportedDocumentType?: string;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    documentSpoofCheck?: {
      /** low, medium or high; unknown when the check gives no verdict */
      risk?: string;
      score?: number;
      confidence?: number;
      details?: string;
      /** success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review) */
      status?: string;
      provider?: string;
      model?: string;
      isDisplayAttack?: boolean;
      isForgedOrTampered?: boolean;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    selfieSpoofCheck?: {
      /** low, medium or high; unknown when the check gives no verdict */
      risk?: string;
      score?: number;
      confidence?: number;
      details?: string;
      /** success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review) */
      status?: string;
      provider?: string;
      model?: string;
      isDisplayAttack?: boolean;
      isForgedOrTampered?: boolean;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    faceMatch?: {
      similarity?: number;
      isSamePerson?: boolean;
      status?: string;
      reason?: string;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    fraudSignalAnalysis?: {
      riskScore?: number;
      signals?: Array<{
        type?: string;
        severity?: string;
        message?: string;
        code?: string;
        [key: string]: unknown;
      }>;
      [key: string]: unknown;
    };
    /** IC-chip verification (docs/ic-chip.md) */
    icChip?: {
      method?: "ic_chip";
      /** icao_emrtd: an ICAO 9303 eMRTD (passport) */
      documentKind?: string;
      /** every check below held */
      verified?: boolean;
      /** success: the reading was verified (whatever the outcome) */
      status?: string;
      checks?: {
        /** EF.SOD's CMS signature by the Document Signer */
        signature: boolean;
        /** the Document Signer's certificate chains to a trusted CSCA */
        chain: boolean;
        /** per data group read: its hash equals the one the SOD signs */
        dataGroups: {
          [key: string]: unknown;
        };
        /** active_authentication (the chip signed this session's nonce), failed, or not_available */
        antiClone: string;
        /** not_checked: no revocation source is configured */
        revocation: string;
        [key: string]: unknown;
      };
      /** reason codes of the checks that failed */
      reasons?: string[];
      payload?: {
        lastName?: string;
        firstName?: string;
        /** YYYY-MM-DD */
        birthDate?: string;
        [key: string]: unknown;
      };
      documentExpired?: boolean;
      /** DG2's image: jpeg or jpeg2000 */
      faceFormat?: string;
      provider?: string;
      model?: string;
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
  processedAt: string;
  /** Present when a reprocess changed the decision: an earlier event of this verificationId said previousStatus */
  reprocess?: {
    /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
    requestedAt: string;
    /** The reason given with the reprocess request ("" when none) */
    reason: string;
    /** The status of the decision this one replaces */
    previousStatus: "approved" | "rejected" | "pending_review";
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

export type WebhookReviewOutcome = {
  /** Event kind (API reference §6.1); always verification.<status> */
  event: "verification.approved" | "verification.rejected" | "verification.pending_review";
  /** Equal to the sessionId */
  verificationId: string;
  tenantId: string;
  /** approved / rejected / pending_review */
  status: "approved" | "rejected" | "pending_review";
  decision: {
    /** Equals the top-level status */
    status: "approved" | "rejected";
    /** Free text: the reviewer's reason */
    reason: string;
    /** API reference §2.8 */
    metadata: {
      faceMatchSimilarity?: number;
      livenessConfidence?: number;
      documentSpoofRisk?: string;
      ocrConfidence?: number;
      threshold?: number;
      blacklistAction?: string;
      blacklistMatches?: Array<{
        id?: string;
        label?: string;
        matchMode?: string;
        action?: string;
        conditionCount?: number;
        [key: string]: unknown;
      }>;
      /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
      blacklistCheckedAt?: string;
      detail?: string;
      confidence?: number;
      documentStatus?: string;
      selfieStatus?: string;
      score?: number;
      similarity?: number;
      documentSpoofCheckRisk?: string;
      expectedDocumentType?: string;
      detectedDocumentType?: string;
      detectedDocumentTypeConfidence?: number;
      riskScore?: number;
      signals?: Array<{
        type?: string;
        severity?: string;
        message?: string;
        code?: string;
        [key: string]: unknown;
      }>;
      fraudScore?: number;
      mismatchedFields?: string[];
      userInputMatch?: boolean;
      /** true/false per compared field (lastName, firstName, birthDate, address) */
      preRegisteredInfoMatch?: {
        [key: string]: unknown;
      };
      injectionSignals?: Array<"screen_light_not_reflected" | "virtual_camera" | "camera_settings_mismatch">;
      /** ic_chip when the person was verified by reading the document's IC chip */
      verificationMethod?: string;
      /** After a review: the reviewer's reason code (review.reasonCode) (known values: documents_verified_manually, face_confirmed_manually, data_mismatch_explained, new_capture_requested, document_unreadable, document_expired, document_suspicious, face_mismatch, person_not_present, data_mismatch, suspected_fraud, other; others may be added) */
      reviewReasonCode?: string;
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  /** Subset of API reference §2.9; may be {} after manual review */
  results: {
    /** API reference §2.6 */
    ocr?: {
      success?: boolean;
      confidence?: number;
      payload?: {
        lastName?: string;
        firstName?: string;
        birthDate?: string;
        address?: string;
        [key: string]: unknown;
      };
      reason?: string;
      /** values seen: success, low_confidence */
      status?: string;
      provider?: string;
      model?: string;
      detectedDocumentType?: string;
      detectedDocumentTypeConfidence?: number;
      unsupportedDocumentType?: string;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    documentSpoofCheck?: {
      /** low, medium or high; unknown when the check gives no verdict */
      risk?: string;
      score?: number;
      confidence?: number;
      details?: string;
      /** success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review) */
      status?: string;
      provider?: string;
      model?: string;
      isDisplayAttack?: boolean;
      isForgedOrTampered?: boolean;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    selfieSpoofCheck?: {
      /** low, medium or high; unknown when the check gives no verdict */
      risk?: string;
      score?: number;
      confidence?: number;
      details?: string;
      /** success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review) */
      status?: string;
      provider?: string;
      model?: string;
      isDisplayAttack?: boolean;
      isForgedOrTampered?: boolean;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    faceMatch?: {
      similarity?: number;
      isSamePerson?: boolean;
      status?: string;
      reason?: string;
      [key: string]: unknown;
    };
    /** API reference §2.9 */
    fraudSignalAnalysis?: {
      riskScore?: number;
      signals?: Array<{
        type?: string;
        severity?: string;
        message?: string;
        code?: string;
        [key: string]: unknown;
      }>;
      [key: string]: unknown;
    };
    /** IC-chip verification (docs/ic-chip.md) */
    icChip?: {
      method?: "ic_chip";
      /** icao_emrtd: an ICAO 9303 eMRTD (passport) */
      documentKind?: string;
      /** every check below held */
      verified?: boolean;
      /** success: the reading was verified (whatever the outcome) */
      status?: string;
      checks?: {
        /** EF.SOD's CMS signature by the Document Signer */
        signature: boolean;
        /** the Document Signer's certificate chains to a trusted CSCA */
        chain: boolean;
        /** per data group read: its hash equals the one the SOD signs */
        dataGroups: {
          [key: string]: unknown;
        };
        /** active_authentication (the chip signed this session's nonce), failed, or not_available */
        antiClone: string;
        /** not_checked: no revocation source is configured */
        revocation: string;
        [key: string]: unknown;
      };
      /** reason codes of the checks that failed */
      reasons?: string[];
      payload?: {
        lastName?: string;
        firstName?: string;
        /** YYYY-MM-DD */
        birthDate?: string;
        [key: string]: unknown;
      };
      documentExpired?: boolean;
      /** DG2's image: jpeg or jpeg2000 */
      faceFormat?: string;
      provider?: string;
      model?: string;
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
  processedAt: string;
  /** API reference §6.2; present only on manual-review outcomes */
  review: {
    id: string;
    /** The reviewer's decision */
    decision: "approved" | "rejected";
    /** The reviewer's e-mail address */
    reviewedBy: string;
    /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
    reviewedAt: string;
    /** The reviewer's free text */
    reason: string;
    /** The reviewer's reason as a code (docs: Reason codes); new_capture_requested: send the person a new session. Absent only on events recorded before reason codes (known values: documents_verified_manually, face_confirmed_manually, data_mismatch_explained, new_capture_requested, document_unreadable, document_expired, document_suspicious, face_mismatch, person_not_present, data_mismatch, suspected_fraud, other; others may be added) */
    reasonCode?: string;
    [key: string]: unknown;
  };
  /** API reference §6.2 */
  verificationResult: {
    /** Verification result status (API reference §3.2) */
    status: "approved" | "rejected" | "pending_review";
    livenessConfidence?: number;
    faceMatchConfidence?: number;
    documentAuthenticity?: string;
    userInputMatch?: boolean;
    /** true/false per compared field (lastName, firstName, birthDate, address) */
    preRegisteredInfoMatch?: {
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

/** The user did not finish before expiresAt */
export type WebhookExpired = {
  /** Sent only to tenants who turned it on */
  event: "verification.expired";
  /** Equal to the sessionId */
  verificationId: string;
  tenantId: string;
  /** The session status (API reference §3.1) */
  status: "expired";
  /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
  expiresAt: string;
  /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
  processedAt: string;
  [key: string]: unknown;
};

export type SessionList = {
  /** Newest first; no personal data */
  data: Array<{
    sessionId: string;
    /** Session status (API reference §3.1) */
    status: "pending" | "in_progress" | "liveness_success" | "completed" | "expired" | "failed";
    /** Absent until the user submits (API reference §3.2) */
    verificationStatus?: "processing" | "approved" | "rejected" | "pending_review";
    documentType?: string;
    /** ISO 8601, UTC */
    createdAt: string;
    /** ISO 8601, UTC */
    updatedAt: string;
    /** ISO 8601, UTC */
    expiresAt: string;
    /** ISO 8601, UTC */
    cancelledAt?: string;
    /** ISO 8601, UTC */
    dataErasedAt?: string;
    [key: string]: unknown;
  }>;
  hasMore: boolean;
  /** Pass as startingAfter for the next page; absent on the last page */
  nextCursor?: string;
  [key: string]: unknown;
};

export type CreateSessionRequest = {
  /** Absolute http(s) URL on the tenant's allow list; https only in production */
  callbackUrl: string;
  /** The end user's IPv4 address, checked at first use of the link; an IPv6 address is ignored */
  clientIpAddress?: string;
  /** Opaque CSRF value, returned in the callback redirect */
  state?: string;
  /** Data to compare with the OCR result (API reference §2.2) */
  preRegisteredInfo?: {
    /** YYYY-MM-DD, a real date */
    birthDate?: string;
    lastName?: string;
    firstName?: string;
    /** A partial address is acceptable for matching */
    address?: string;
  };
  /** How the user may verify: image (photographs of a document), ic_chip (reading the document's IC chip, docs/ic-chip.md), or both. Absent: the tenant's default (image unless set) */
  verificationMethods?: Array<"image" | "ic_chip">;
};

export type CreatedSession = {
  sessionId: string;
  /** Hosted page; carries sessionId and a one-time token */
  verificationUrl: string;
  /** ISO 8601, UTC */
  verificationUrlExpiresAt: string;
  /** ISO 8601, UTC */
  expiresAt: string;
  [key: string]: unknown;
};

export type SessionDetail = {
  sessionId: string;
  /** Session status (API reference §3.1) */
  status: "pending" | "in_progress" | "liveness_success" | "completed" | "expired" | "failed";
  callbackUrl: string;
  verificationUrl: string;
  /** ISO 8601, UTC */
  verificationUrlExpiresAt: string;
  /** ISO 8601, UTC */
  createdAt: string;
  /** ISO 8601, UTC */
  updatedAt: string;
  /** ISO 8601, UTC */
  expiresAt: string;
  /** Absent until the user chooses a document */
  documentType?: string;
  /** The methods this session offers (create request, else the tenant default) */
  verificationMethods: Array<"image" | "ic_chip">;
  /** The method the user verified with; absent until the user submits */
  verificationMethod?: "image" | "ic_chip";
  /** Absent when none was given at creation, or after erasure */
  preRegisteredInfo?: {
    /** YYYY-MM-DD, a real date */
    birthDate?: string;
    lastName?: string;
    firstName?: string;
    /** A partial address is acceptable for matching */
    address?: string;
    [key: string]: unknown;
  };
  /** Absent until the user submits (API reference §2.3) */
  userInput?: {
    lastName?: string;
    firstName?: string;
    lastNameKana?: string;
    firstNameKana?: string;
    birthDate?: string;
    address?: string;
    [key: string]: unknown;
  };
  /** Absent until the user chooses a document (API reference §2.4) */
  documents?: {
    frontUploaded: boolean;
    backUploaded: boolean;
    /** Needs the API key */
    frontImageUrl?: string;
    /** Needs the API key */
    backImageUrl?: string;
    [key: string]: unknown;
  };
  /** Absent until a live face check was attempted (API reference §2.5) */
  liveness?: {
    status: string;
    confidence?: number;
    /** Needs the API key */
    referenceImageUrl?: string;
    [key: string]: unknown;
  };
  /** Absent until OCR has run (API reference §2.6) */
  ocrResult?: {
    success?: boolean;
    confidence?: number;
    payload?: {
      lastName?: string;
      firstName?: string;
      birthDate?: string;
      address?: string;
      [key: string]: unknown;
    };
    reason?: string;
    /** values seen: success, low_confidence */
    status?: string;
    provider?: string;
    model?: string;
    detectedDocumentType?: string;
    detectedDocumentTypeConfidence?: number;
    unsupportedDocumentType?: string;
    [key: string]: unknown;
  };
  /** Absent until the user submits (API reference §2.7) */
  verification?: {
    verificationId: string;
    /** processing, approved, rejected or pending_review (API reference §3.2) */
    status: string;
    /** ISO 8601, UTC */
    createdAt: string;
    /** ISO 8601, UTC */
    updatedAt: string;
    decision?: {
      status: string;
      reason: string;
      /** API reference §2.8 */
      metadata: {
        faceMatchSimilarity?: number;
        livenessConfidence?: number;
        documentSpoofRisk?: string;
        ocrConfidence?: number;
        threshold?: number;
        blacklistAction?: string;
        blacklistMatches?: Array<{
          id?: string;
          label?: string;
          matchMode?: string;
          action?: string;
          conditionCount?: number;
          [key: string]: unknown;
        }>;
        /** ISO 8601 timestamp, UTC with a trailing Z (API reference §2) */
        blacklistCheckedAt?: string;
        detail?: string;
        confidence?: number;
        documentStatus?: string;
        selfieStatus?: string;
        score?: number;
        similarity?: number;
        documentSpoofCheckRisk?: string;
        expectedDocumentType?: string;
        detectedDocumentType?: string;
        detectedDocumentTypeConfidence?: number;
        riskScore?: number;
        signals?: Array<{
          type?: string;
          severity?: string;
          message?: string;
          code?: string;
          [key: string]: unknown;
        }>;
        fraudScore?: number;
        mismatchedFields?: string[];
        userInputMatch?: boolean;
        /** true/false per compared field (lastName, firstName, birthDate, address) */
        preRegisteredInfoMatch?: {
          [key: string]: boolean;
        };
        injectionSignals?: Array<"screen_light_not_reflected" | "virtual_camera" | "camera_settings_mismatch">;
        /** ic_chip when the person was verified by reading the document's IC chip */
        verificationMethod?: string;
        /** After a review: the reviewer's reason code (review.reasonCode) */
        reviewReasonCode?: "documents_verified_manually" | "face_confirmed_manually" | "data_mismatch_explained" | "new_capture_requested" | "document_unreadable" | "document_expired" | "document_suspicious" | "face_mismatch" | "person_not_present" | "data_mismatch" | "suspected_fraud" | "other";
        [key: string]: unknown;
      };
      [key: string]: unknown;
    };
    results?: {
      /** API reference §2.6 */
      ocr?: {
        success?: boolean;
        confidence?: number;
        payload?: {
          lastName?: string;
          firstName?: string;
          birthDate?: string;
          address?: string;
          [key: string]: unknown;
        };
        reason?: string;
        /** values seen: success, low_confidence */
        status?: string;
        provider?: string;
        model?: string;
        detectedDocumentType?: string;
        detectedDocumentTypeConfidence?: number;
        unsupportedDocumentType?: string;
        [key: string]: unknown;
      };
      /** API reference §2.9 */
      documentSpoofCheck?: {
        /** low, medium or high; unknown when the check gives no verdict */
        risk?: string;
        score?: number;
        confidence?: number;
        details?: string;
        /** success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review) */
        status?: string;
        provider?: string;
        model?: string;
        isDisplayAttack?: boolean;
        isForgedOrTampered?: boolean;
        [key: string]: unknown;
      };
      /** API reference §2.9 */
      selfieSpoofCheck?: {
        /** low, medium or high; unknown when the check gives no verdict */
        risk?: string;
        score?: number;
        confidence?: number;
        details?: string;
        /** success, or insufficient_quality: the capture too poor for the check to judge (risk unknown; the verification goes to review) */
        status?: string;
        provider?: string;
        model?: string;
        isDisplayAttack?: boolean;
        isForgedOrTampered?: boolean;
        [key: string]: unknown;
      };
      /** API reference §2.9 */
      faceMatch?: {
        similarity?: number;
        isSamePerson?: boolean;
        status?: string;
        reason?: string;
        [key: string]: unknown;
      };
      /** API reference §2.9 */
      fraudSignalAnalysis?: {
        riskScore?: number;
        signals?: Array<{
          type?: string;
          severity?: string;
          message?: string;
          code?: string;
          [key: string]: unknown;
        }>;
        [key: string]: unknown;
      };
      /** IC-chip verification (docs/ic-chip.md) */
      icChip?: {
        method?: "ic_chip";
        /** icao_emrtd: an ICAO 9303 eMRTD (passport) */
        documentKind?: string;
        /** every check below held */
        verified?: boolean;
        /** success: the reading was verified (whatever the outcome) */
        status?: string;
        checks?: {
          /** EF.SOD's CMS signature by the Document Signer */
          signature: boolean;
          /** the Document Signer's certificate chains to a trusted CSCA */
          chain: boolean;
          /** per data group read: its hash equals the one the SOD signs */
          dataGroups: {
            [key: string]: boolean;
          };
          /** active_authentication (the chip signed this session's nonce), failed, or not_available */
          antiClone: string;
          /** not_checked: no revocation source is configured */
          revocation: string;
          [key: string]: unknown;
        };
        /** reason codes of the checks that failed */
        reasons?: string[];
        payload?: {
          lastName?: string;
          firstName?: string;
          /** YYYY-MM-DD */
          birthDate?: string;
          [key: string]: unknown;
        };
        documentExpired?: boolean;
        /** DG2's image: jpeg or jpeg2000 */
        faceFormat?: string;
        provider?: string;
        model?: string;
        [key: string]: unknown;
      };
      [key: string]: unknown;
    };
    preRegisteredInfoMatch?: {
      [key: string]: unknown;
    };
    userInputMatch?: boolean;
    [key: string]: unknown;
  };
  /** When the tenant cancelled the session */
  cancelledAt?: string;
  /** When the session's personal data and images were erased (redact, or the retention period) */
  dataErasedAt?: string;
  [key: string]: unknown;
};

export type ReprocessRequest = {
  /** Checks to run again; empty or missing means all. The decision is taken again afterwards. */
  queues?: Array<"ocr" | "documentSpoofCheck" | "selfieSpoofCheck" | "faceMatch" | "fraudSignalAnalysis" | "icChip">;
  reason?: string;
};

export type ReprocessResult = {
  sessionId: string;
  /** ISO 8601, UTC */
  queuedAt: string;
  queued: Array<{
    queue: string;
    /** ISO 8601, UTC */
    queuedAt: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
};

export type EmptyRequest = Record<string, never>;

export type ReviewRequest = {
  /** The reviewer's decision */
  decision: "approved" | "rejected";
  /** The reason as a code; `other` when left out. Sent as review.reasonCode and decision.metadata.reviewReasonCode. Approving: documents_verified_manually, face_confirmed_manually, data_mismatch_explained, other; rejecting: new_capture_requested, document_unreadable, document_expired, document_suspicious, face_mismatch, person_not_present, data_mismatch, suspected_fraud, other (new_capture_requested: the photos could not be judged, send the person a new session) */
  reasonCode?: "documents_verified_manually" | "face_confirmed_manually" | "data_mismatch_explained" | "new_capture_requested" | "document_unreadable" | "document_expired" | "document_suspicious" | "face_mismatch" | "person_not_present" | "data_mismatch" | "suspected_fraud" | "other";
  /** The reviewer's reason; becomes decision.reason (API reference §6.2 rule 2) */
  reason: string;
  /** The reviewer's e-mail address */
  reviewedBy: string;
};

/** Query of GET /v1/verification-sessions. */
export type ListSessionsQuery = {
  /** Sessions per page, 1 to 100 (default 20) */
  limit?: string;
  /** The nextCursor of the previous page: the sessions created before this one */
  startingAfter?: string;
  /** Only sessions in this status (API reference §3.1) */
  status?: "pending" | "in_progress" | "liveness_success" | "completed" | "expired" | "failed";
  /** Only sessions whose verification has this status (API reference §3.2) */
  verificationStatus?: "processing" | "approved" | "rejected" | "pending_review";
  /** Created at or after this time (ISO 8601) */
  createdFrom?: string;
  /** Created before this time (ISO 8601) */
  createdTo?: string;
};

/** Every operation of the API: its route, request, response and the error codes it can answer. */
export interface Operations {
  /** Create a verification session */
  createSession: {
    method: "POST";
    path: "/v1/verification-sessions";
    request: CreateSessionRequest;
    requestRequired: true;
    query: never;
    response: CreatedSession;
    errors: "BadRequest" | "ValidationFailed" | "Unauthorized" | "PayloadTooLarge" | "UnsupportedMediaType" | "CallbackUrlNotAllowed" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** List the tenant's sessions, newest first */
  listSessions: {
    method: "GET";
    path: "/v1/verification-sessions";
    request: never;
    requestRequired: false;
    query: ListSessionsQuery;
    response: SessionList;
    errors: "ValidationFailed" | "Unauthorized" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** Get a session with its results */
  getSession: {
    method: "GET";
    path: "/v1/verification-sessions/{sessionId}";
    request: never;
    requestRequired: false;
    query: never;
    response: SessionDetail;
    errors: "ValidationFailed" | "Unauthorized" | "Forbidden" | "NotFound" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** Run checks of a submitted session again, then the decision */
  reprocessSession: {
    method: "POST";
    path: "/v1/verification-sessions/{sessionId}/reprocess";
    request: ReprocessRequest;
    requestRequired: false;
    query: never;
    response: ReprocessResult;
    errors: "BadRequest" | "ValidationFailed" | "Unauthorized" | "Forbidden" | "NotFound" | "SessionNotSubmitted" | "SessionDataErased" | "DecisionFinal" | "PayloadTooLarge" | "UnsupportedMediaType" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** Cancel a session the user has not submitted */
  cancelSession: {
    method: "POST";
    path: "/v1/verification-sessions/{sessionId}/cancel";
    request: EmptyRequest;
    requestRequired: false;
    query: never;
    response: SessionDetail;
    errors: "BadRequest" | "ValidationFailed" | "Unauthorized" | "Forbidden" | "NotFound" | "SessionNotCancellable" | "PayloadTooLarge" | "UnsupportedMediaType" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** Erase a finished session's personal data and images */
  redactSession: {
    method: "POST";
    path: "/v1/verification-sessions/{sessionId}/redact";
    request: EmptyRequest;
    requestRequired: false;
    query: never;
    response: SessionDetail;
    errors: "BadRequest" | "ValidationFailed" | "Unauthorized" | "Forbidden" | "NotFound" | "SessionNotRedactable" | "PayloadTooLarge" | "UnsupportedMediaType" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** Decide a pending_review verification (a reviewer's decision is final) */
  reviewSession: {
    method: "POST";
    path: "/v1/verification-sessions/{sessionId}/review";
    request: ReviewRequest;
    requestRequired: true;
    query: never;
    response: SessionDetail;
    errors: "BadRequest" | "ValidationFailed" | "Unauthorized" | "Forbidden" | "NotFound" | "SessionNotPendingReview" | "DecisionFinal" | "ReviewClaimed" | "SecondReviewerRequired" | "PayloadTooLarge" | "UnsupportedMediaType" | "TooManyRequests" | "ServiceUnavailable";
  };
  /** A document image or the liveness reference image (JPEG) */
  getSessionImage: {
    method: "GET";
    path: "/v1/verification-sessions/{sessionId}/images/{kind}";
    request: never;
    requestRequired: false;
    query: never;
    response: Uint8Array;
    errors: "ValidationFailed" | "Unauthorized" | "Forbidden" | "NotFound" | "TooManyRequests" | "ServiceUnavailable";
  };
}

export type OperationId = keyof Operations;

/** Every error code an operation of the API can answer with (the error field of the body). */
export type ErrorCode = "BadRequest" | "CallbackUrlNotAllowed" | "DecisionFinal" | "Forbidden" | "NotFound" | "PayloadTooLarge" | "ReviewClaimed" | "SecondReviewerRequired" | "ServiceUnavailable" | "SessionDataErased" | "SessionNotCancellable" | "SessionNotPendingReview" | "SessionNotRedactable" | "SessionNotSubmitted" | "TooManyRequests" | "Unauthorized" | "UnsupportedMediaType" | "ValidationFailed";
