-- The live check's screen-light challenge (src/liveness/screen-light.ts): the colours the page was
-- asked to show, and how the face's colour followed them (a correlation, −1..1; null when the
-- capture could not be measured or the challenge had no colours). And what the browser said of
-- its camera with the attempt, with the injection signals that report and the frames gave
-- (src/liveness/injection-signals.ts).
ALTER TABLE liveness_challenges
  ADD COLUMN light_sequence text[] NOT NULL DEFAULT '{}',
  ADD COLUMN screen_light double precision,
  ADD COLUMN camera jsonb,
  ADD COLUMN injection_signals text[] NOT NULL DEFAULT '{}';
