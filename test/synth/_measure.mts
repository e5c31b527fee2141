import path from 'node:path';
import { detectFaceMesh } from '../../src/platform/ml/human.ts';
import { defaultFacesDir, listFacePeople, POSES, renderHeadPose } from '../../src/synth/index.ts';

const scene = {
  width: 320,
  height: 240,
  faceWidth: 0.54,
  centre: [0.5, 0.5] as [number, number],
  background: { kind: 'stone' as const, colour: [200, 196, 188] as [number, number, number], seed: 7 },
};
const people = listFacePeople(defaultFacesDir());
const errs: Record<string, number[]> = {};
let misses = 0;
for (const [person, files] of people) {
  for (const file of files) {
    const row: string[] = [path.basename(file)];
    for (const name of ['turn_left', 'turn_right', 'look_up', 'look_down'] as const) {
      const m = await detectFaceMesh({ ...(await renderHeadPose(file, POSES[name], scene)), channels: 3 });
      if (!m) {
        misses++;
        row.push(`${name}:none`);
        continue;
      }
      const axis = POSES[name].yaw !== 0 ? 'yaw' : 'pitch';
      const e = m.rotation[axis] - POSES[name][axis];
      (errs[name] ??= []).push(e);
      row.push(`${name}:${m.rotation[axis].toFixed(1)}`);
    }
    console.log(row.join(' '));
  }
}
for (const [k, v] of Object.entries(errs)) {
  const abs = v.map(Math.abs).sort((a, b) => a - b);
  console.log(
    k,
    'n',
    v.length,
    'mean err',
    (v.reduce((a, b) => a + b, 0) / v.length).toFixed(1),
    'median |err|',
    abs[Math.floor(abs.length / 2)]?.toFixed(1),
    'max |err|',
    abs[abs.length - 1]?.toFixed(1),
    'within10',
    abs.filter((x) => x <= 10).length,
  );
}
console.log('misses', misses);
