// What the end user reads when the server refuses something (docs/hosted-flow-api.md "Error body":
// a clear 4xx and a message in the user's language). The browser UI has its own message files;
// these are the server's, keyed by the stable error code, which the UI may use as its message key
// instead.
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../platform/http/errors.ts';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

type Messages = Record<Language, string>;

export const FLOW_MESSAGES: Partial<Record<ErrorCode, Messages>> = {
  ValidationFailed: { ja: '入力内容を確認してください。', en: 'Please check what you entered.' },
  BadRequest: { ja: 'リクエストを読み取れませんでした。', en: 'The request could not be read.' },
  PayloadTooLarge: { ja: 'データが大きすぎます。', en: 'The data is too large.' },
  UnsupportedMediaType: { ja: 'この形式のデータは送信できません。', en: 'This kind of data cannot be sent.' },
  FlowSessionRequired: {
    ja: 'セッションが見つかりません。最初のリンクからやり直してください。',
    en: 'Your session was not found. Please start again from the link you were given.',
  },
  CsrfTokenInvalid: {
    ja: 'ページを再読み込みしてからもう一度お試しください。',
    en: 'Please reload the page and try again.',
  },
  SessionExpired: {
    ja: '有効期限が切れました。最初からやり直してください。',
    en: 'Your session has expired. Please start again.',
  },
  FlowStepOutOfOrder: {
    ja: 'この手順は今は実行できません。前の手順を完了してください。',
    en: 'This step cannot be done now. Please finish the previous steps first.',
  },
  DocumentTypeNotAllowed: {
    ja: 'この本人確認書類はご利用いただけません。',
    en: 'This identity document is not accepted.',
  },
  ImageTypeUnsupported: {
    ja: 'JPEG、PNG、WebP の画像を選んでください。',
    en: 'Please choose a JPEG, PNG or WebP image.',
  },
  ImageTooLarge: { ja: '画像が 10 MB を超えています。', en: 'The image is larger than 10 MB.' },
  ImageUnreadable: {
    ja: '画像を読み取れませんでした。撮り直してください。',
    en: 'The image could not be read. Please take it again.',
  },
  ImageTooManyPixels: {
    ja: '画像の解像度が高すぎます。',
    en: 'The image has too many pixels.',
  },
  ImageTooSmall: {
    ja: '画像が小さすぎます。書類を大きく写してください。',
    en: 'The image is too small. Please fill the frame with the document.',
  },
  ImageBlurred: {
    ja: '画像がぼやけています。カメラを固定して撮り直してください。',
    en: 'The image is blurred. Please hold the camera still and try again.',
  },
  ImageGlare: {
    ja: '光が反射しています。角度を変えて撮り直してください。',
    en: 'There is glare on the document. Please tilt it and try again.',
  },
  DocumentNotFound: {
    ja: '書類が見つかりません。枠に合わせて撮影してください。',
    en: 'No document was found. Please fit it inside the frame.',
  },
  DocumentIsSelfie: {
    ja: '写っているのは顔で、本人確認書類ではありません。書類を撮り直してください。',
    en: 'This photo shows a face, not an identity document. Please take a photo of the document.',
  },
  DocumentNotRecognised: {
    ja: '本人確認書類が写っていません。選んだ書類を撮り直してください。',
    en: 'No identity document can be seen in this photo. Please take a photo of the document you chose.',
  },
  DocumentTypeMismatch: {
    ja: '選んだ書類とは別の種類の書類が写っています。選んだ書類を撮影するか、書類の種類を選び直してください。',
    en: 'This photo shows another type of document than the one you chose. Please photograph that one, or choose the type again.',
  },
  DocumentSideMismatch: {
    ja: '書類の表面が写っています。裏返して裏面を撮影してください。',
    en: 'This photo shows the front of the document. Please turn it over and photograph the back.',
  },
  DocumentTilted: {
    ja: '書類が傾いていて読み取れません。書類をカメラと平行にし、枠に合わせて撮り直してください。',
    en: 'The document is tilted, so it could not be read. Hold it flat and square to the camera, inside the frame, and try again.',
  },
  DocumentTooFar: {
    ja: '書類が遠くて読み取れません。枠いっぱいに写るように近づけて撮り直してください。',
    en: 'The document is too far away to be read. Move closer so that it fills the frame, and try again.',
  },
  DocumentUnreadable: {
    ja: '書類の文字を読み取れませんでした。明るい場所で、反射がなく、枠いっぱいにピントを合わせて撮り直してください。',
    en: 'The text on the document could not be read. Take the photo again in good light, without reflections, in focus and filling the frame.',
  },
  TiltedCardNotFound: {
    ja: 'カードが見つかりません。カード全体が枠に収まるようにして、傾けて撮影してください。',
    en: 'No card can be seen. Please keep the whole card inside the frame while you tilt it.',
  },
  TiltedCardNotTilted: {
    ja: 'カードの傾きが足りません。カードの上側を奥へ30〜45度ほど傾け、手前の縁（厚み）が見えるように撮影してください。',
    en: 'The card is not tilted enough. Tilt its top edge away from you by about 30–45° so that the near edge (its thickness) shows.',
  },
  TiltedCardNotSame: {
    ja: '表面で撮影したものと同じカードが写っていません。同じカードを傾けて撮影してください。',
    en: 'This is not the card photographed as the front. Please tilt the same card and try again.',
  },
  VerificationMethodNotOffered: {
    ja: 'この本人確認では、この方法は使えません。',
    en: 'This verification does not offer this method.',
  },
  ChipReaderLinkInvalid: {
    ja: 'ICチップ読み取りのリンクが無効です。画面に戻って、もう一度始めてください。',
    en: 'The chip reader link has expired. Go back to the page and start again.',
  },
  ChipNonceInvalid: {
    ja: 'ICチップの読み取りをやり直してください。',
    en: 'Please read the chip again.',
  },
  ChipReadingRejected: {
    ja: 'ICチップのデータを確認できませんでした。もう一度読み取ってください。',
    en: 'The chip data could not be checked. Please read the chip again.',
  },
  LivenessChallengeInvalid: {
    ja: '顔認証の指示が無効です。もう一度始めてください。',
    en: 'The face check has expired. Please start it again.',
  },
  LivenessAttemptsExhausted: {
    ja: '顔認証の試行回数の上限に達しました。',
    en: 'No face check attempts are left.',
  },
  LivenessAttemptInProgress: {
    ja: '顔認証を確認しています。結果が出るまでお待ちください。',
    en: 'Your face check is being verified. Please wait for the result.',
  },
  NotFound: { ja: 'ページが見つかりません。', en: 'Page not found.' },
  TooManyRequests: { ja: 'しばらくしてからお試しください。', en: 'Please try again in a moment.' },
  // 503 with Retry-After: the database is away, or a face check could not finish (no try used).
  ServiceUnavailable: {
    ja: '一時的に処理できません。少し待ってからもう一度お試しください。',
    en: 'This could not be done just now. Please wait a moment and try again.',
  },
  InternalError: {
    ja: '問題が発生しました。しばらくしてからお試しください。',
    en: 'Something went wrong. Please try again in a moment.',
  },
};

/** Liveness failure reasons (verify-liveness-frames.ts), for the retry screen. */
export const LIVENESS_FAILURE_MESSAGES: Record<string, Messages> = {
  no_face: { ja: '顔が映っていない画像がありました。', en: 'Your face was not visible in every picture.' },
  no_frontal_start: {
    ja: '最初に正面を向いてください。',
    en: 'Please start by looking straight at the camera.',
  },
  pose_order_mismatch: {
    ja: '指示された順番どおりに動いてください。',
    en: 'Please make the movements in the order shown.',
  },
  face_changed: {
    ja: '途中で別の顔が映りました。',
    en: 'A different face appeared during the check.',
  },
  timestamps_invalid: {
    ja: '撮影の記録が正しくありません。もう一度お試しください。',
    en: 'The capture was not recorded correctly. Please try again.',
  },
  presentation_attack: {
    ja: 'ご本人の顔を直接カメラに映してください（写真や画面は使えません）。',
    en: 'Please show your own face to the camera directly, not a photo or a screen.',
  },
};

/**
 * ja or en from Accept-Language (the first supported language by quality); a browser that names
 * neither gets English (a visitor whose language we lack reads English more often than Japanese),
 * a request that sends no header Japanese.
 */
export function negotiateLanguage(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  if (typeof header !== 'string' || header === '') return 'ja';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.split('-')[0];
    if (primary === 'ja' || primary === 'en') return primary;
  }
  return ranked.some((x) => x.tag !== '*') ? 'en' : 'ja';
}
