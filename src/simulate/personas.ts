// The persona names alone, without the media generator behind them: the CLI checks its arguments
// and opens the one-time link (valid 10 s) before it loads the heavy modules.
export const PERSONAS = ['genuine', 'impostor', 'photo-attack', 'blurry-document', 'screen-replay'] as const;
export type Persona = (typeof PERSONAS)[number];

export function isPersona(value: string): value is Persona {
  return (PERSONAS as readonly string[]).includes(value);
}
