// Human's settings for face mesh only, shared by the server (src/platform/ml/human.ts), which
// verifies liveness frames, and the browser (web/verify/capture/face-guide.ts), which guides the user
// with the same models. Pure data: no Node or DOM imports, so both builds can use it.

/** Everything but the face detector and mesh is off: the other models cost time and are not used. */
export function faceMeshOnlyConfig(maxDetected: number) {
  return {
    debug: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { enabled: true, rotation: false, maxDetected, minConfidence: 0.3, return: false },
      mesh: { enabled: true },
      attention: { enabled: false },
      iris: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}
