// Leaving the flow by accident (Back on its first step, closing the tab, a typed address) loses
// the person's place: the browser asks first. The flow's own departures — to the tenant after
// submission, to a refusal page — go through leaveFlow, which does not ask.
const ask = (event: BeforeUnloadEvent) => {
  event.preventDefault();
  // Chrome before 119 and Safari need returnValue set to show the prompt.
  event.returnValue = '';
};

let guarding = false;

export function guardLeaving(on: boolean): void {
  if (on === guarding) return;
  guarding = on;
  if (on) window.addEventListener('beforeunload', ask);
  else window.removeEventListener('beforeunload', ask);
}

export function leaveFlow(url: string): void {
  guardLeaving(false);
  window.location.assign(url);
}
