-- The thickness capture (厚み, the 犯罪収益移転防止法 image method; tenants.settings.thicknessCapture):
-- a third photo of the document, the card held tilted so that its edge shows. Stored as the
-- front and back are (encrypted blob, one row), read by the documentSpoofCheck.
ALTER TABLE session_documents DROP CONSTRAINT IF EXISTS session_documents_side_check;
ALTER TABLE session_documents ADD CONSTRAINT session_documents_side_check
  CHECK (side IN ('front', 'back', 'tilted'));
