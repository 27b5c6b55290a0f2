-- Signed decisions and pointer moves are history: rows are only ever inserted (what was approved, by whom,
-- and what the default was at time T must not be rewritten afterwards).
CREATE FUNCTION "approval_decisions_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'approval_decisions is append-only: a decision cannot be altered';
END;
$$;
CREATE TRIGGER "approval_decisions_no_update_delete" BEFORE UPDATE OR DELETE ON "approval_decisions"
FOR EACH ROW EXECUTE FUNCTION "approval_decisions_append_only"();
CREATE TRIGGER "approval_decisions_no_truncate" BEFORE TRUNCATE ON "approval_decisions"
FOR EACH STATEMENT EXECUTE FUNCTION "approval_decisions_append_only"();
CREATE FUNCTION "pointer_moves_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'pointer_moves is append-only: a pointer''s history cannot be altered';
END;
$$;
CREATE TRIGGER "pointer_moves_no_update_delete" BEFORE UPDATE OR DELETE ON "pointer_moves"
FOR EACH ROW EXECUTE FUNCTION "pointer_moves_append_only"();
CREATE TRIGGER "pointer_moves_no_truncate" BEFORE TRUNCATE ON "pointer_moves"
FOR EACH STATEMENT EXECUTE FUNCTION "pointer_moves_append_only"();
