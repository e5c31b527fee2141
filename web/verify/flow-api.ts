// The browser's side of the flow's JSON API (docs/hosted-flow-api.md): every call sends the
// user's language in Accept-Language (so server messages come back in it) and, for POST/PUT, the
// CSRF token from GET state.
import type { FlowState } from '../../src/hosted-flow/flow-state.ts';
import type { CameraReport } from './capture/camera.ts';
import type { Language } from './i18n.ts';

export type { FlowState };

export type DocumentType = 'drivers_license' | 'my_number_card' | 'residence_card' | 'passport';
export type LivenessStep = 'turn_left' | 'turn_right' | 'look_up' | 'look_down' | 'move_closer';

/** A field the tenant does not require may be left out (or sent empty). */
export interface PersonalData {
  lastName?: string;
  firstName?: string;
  lastNameKana?: string;
  firstNameKana?: string;
  birthDate?: string;
  address?: string;
}

export interface LivenessChallenge {
  challengeId: string;
  steps: LivenessStep[];
  /** The screen-light challenge: colours shown in turn from the capture's start (docs/hosted-flow-api.md). */
  light?: { colours: string[]; segmentMs: number; fadeMs: number };
  expiresAt: string;
  attemptsLeft: number;
}

export interface LivenessResult {
  passed: boolean;
  livenessStatus: string;
  confidence: number;
  failures: string[];
  attemptsLeft: number;
  messages: { key: string; message: string }[];
}

/** An error answer of the API: `messages` holds the text in both languages. */
export class FlowApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly messages: Partial<Record<Language, string>>,
    readonly details: { path: string; message: string }[],
  ) {
    super(code);
  }

  textIn(language: Language): string | null {
    return this.messages[language] ?? null;
  }
}

export class FlowApi {
  csrfToken = '';
  constructor(public language: Language) {}

  private async call<T>(method: string, path: string, body?: FormData | object): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'accept-language': this.language };
    if (method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`/verify/api/${path}`, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (response.status === 204) return undefined as T;
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw new FlowApiError(
        response.status,
        String(json.error ?? 'InternalError'),
        json.messages ?? {},
        Array.isArray(json.details) ? json.details : [],
      );
    }
    return json as T;
  }

  async state(): Promise<FlowState> {
    const state = await this.call<FlowState>('GET', 'state');
    this.csrfToken = state.csrfToken;
    return state;
  }

  consent = () => this.call<void>('POST', 'consent');
  chooseDocumentType = (documentType: DocumentType) =>
    this.call<void>('PUT', 'document-type', { documentType });

  uploadDocument(side: 'front' | 'back' | 'tilted', image: Blob) {
    const form = new FormData();
    form.append('image', image, image instanceof File ? image.name : `${side}.jpg`);
    return this.call<{ side: string; width: number; height: number }>('POST', `documents/${side}`, form);
  }

  challenge = () => this.call<LivenessChallenge>('POST', 'liveness/challenge');

  submitLiveness(challengeId: string, frames: { t: number; image: Blob }[], camera: CameraReport | null) {
    const form = new FormData();
    form.append('challengeId', challengeId);
    form.append('timestamps', JSON.stringify(frames.map((f) => f.t)));
    if (camera) form.append('camera', JSON.stringify(camera));
    frames.forEach((f, i) => {
      form.append('frames', f.image, `frame-${i}.jpg`);
    });
    return this.call<LivenessResult>('POST', 'liveness/attempts', form);
  }

  handoff = () => this.call<{ url: string; expiresAt: string; qrSvg: string }>('POST', 'handoff');
  /** The IC chip's reader hand-off (docs/hosted-flow-api.md "IC chip"). */
  chipReader = () =>
    this.call<{ url: string; deepLink: string; expiresAt: string; qrSvg: string }>('POST', 'chip/reader');
  handoffStatus = () =>
    this.call<{ status: 'waiting' | 'expired' | 'continued' | 'submitted'; redirectTo: string | null }>(
      'GET',
      'handoff',
    );

  savePersonalData = (data: PersonalData) => this.call<PersonalData>('PUT', 'personal-data', data);
  submit = () => this.call<{ redirectTo: string }>('POST', 'submit');
}
