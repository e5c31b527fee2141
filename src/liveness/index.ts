// The live face check as other capabilities use it (the hosted flow, the bench, simulate).
export {
  classifyHeadPose,
  type FramePose,
  faceWidth,
  frontalOffset,
  POSE_THRESHOLDS,
  type PoseOffset,
} from './classify-head-pose.ts';
export {
  type CameraReport,
  cameraSignals,
  INJECTION_SIGNALS,
  type InjectionSignal,
  isInjectionSignal,
  isVirtualCameraLabel,
} from './injection-signals.ts';
export {
  CHALLENGE_LENGTH,
  CHALLENGE_VALIDITY_MS,
  drawChallengeSteps,
  isLivenessStep,
  LIVENESS_STEPS,
  type LivenessStep,
  MAX_LIVENESS_ATTEMPTS,
} from './liveness-challenge-steps.ts';
export {
  isPassiveAttack,
  PASSIVE_PAD,
  type PassivePadReading,
  readPassivePad,
  spreadIndices,
} from './passive-pad.ts';
export {
  drawLightSequence,
  isLightColour,
  LIGHT_COLOURS,
  LIGHT_FADE_MS,
  LIGHT_SEGMENT_MS,
  type LightColour,
  lightAt,
  lightRgb,
  measureScreenLight,
  SCREEN_LIGHT,
  type ScreenLightReading,
} from './screen-light.ts';
export {
  LIVENESS_LIMITS,
  type LivenessFailure,
  type LivenessFrame,
  type LivenessVerdict,
  verifyLivenessFrames,
} from './verify-liveness-frames.ts';
