-- The live check's screen-light challenge (src/liveness/screen-light.ts): the colours the page was
-- asked to show, and how the face's colour followed them (a correlation, −1..1; null when the
-- capture could not be measured or the challenge had no colours).
ALTER TABLE liveness_challenges
  ADD COLUMN light_sequence text[] NOT NULL DEFAULT '{}',
  ADD COLUMN screen_light double precision;
