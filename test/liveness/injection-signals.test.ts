// Injection signals from what the browser says of its camera (src/liveness/injection-signals.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cameraSignals, isVirtualCameraLabel } from '../../src/liveness/index.ts';

test('virtual-camera drivers are known by their device names; ordinary webcams are not', () => {
  for (const label of [
    'OBS Virtual Camera',
    'ManyCam Virtual Webcam',
    'Snap Camera',
    'XSplit VCam',
    'e2eSoft VCam',
    'NVIDIA Broadcast',
    'Dummy video device (0x0000)',
    'Logi Capture',
  ]) {
    assert.equal(isVirtualCameraLabel(label), true, label);
  }
  for (const label of [
    'FaceTime HD Camera',
    'Integrated Camera (04f2:b6d9)',
    'Logitech BRIO (046d:085e)',
    'camera2 1, facing front',
    'Front Camera',
    'USB2.0 HD UVC WebCam',
    'fake_device_0',
  ]) {
    assert.equal(isVirtualCameraLabel(label), false, label);
  }
});

test('frames larger than or of another shape than the camera reported are a signal; either orientation fits', () => {
  const report = { label: 'Front Camera', width: 640, height: 480, frameRate: 30 };
  assert.deepEqual(cameraSignals(report, [{ width: 640, height: 480 }]), []);
  // A phone held upright reports its settings one way and films the other.
  assert.deepEqual(cameraSignals(report, [{ width: 480, height: 640 }]), []);
  assert.deepEqual(
    cameraSignals(report, [
      { width: 640, height: 480 },
      { width: 1280, height: 720 },
    ]),
    ['camera_settings_mismatch'],
  );
  // Another shape at a smaller size (16:9 from a 4:3 camera) does not come from this camera…
  assert.deepEqual(cameraSignals(report, [{ width: 480, height: 270 }]), ['camera_settings_mismatch']);
  // …but the page's own scaling of a 4K camera to the pixel budget keeps the shape.
  const uhd = { ...report, width: 3840, height: 2160 };
  assert.deepEqual(cameraSignals(uhd, [{ width: 1919, height: 1079 }]), []);
  assert.deepEqual(
    cameraSignals({ ...report, label: 'OBS Virtual Camera', width: null }, [{ width: 1, height: 1 }]),
    ['virtual_camera'],
  );
  // Nothing reported (an API client, an old page): no signal, not a suspicion.
  assert.deepEqual(cameraSignals(null, [{ width: 1, height: 1 }]), []);
});
