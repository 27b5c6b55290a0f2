-- Signed decisions and pointer moves are history: rows are only ever inserted (what was approved, by whom,
-- and what the default was at time T must not be rewritten afterwards). One function serves both tables;
-- each trigger passes the message that names its table.
CREATE FUNCTION "refuse_append_only_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0];
END;
$$;
CREATE TRIGGER "approval_decisions_no_update_delete" BEFORE UPDATE OR DELETE ON "approval_decisions"
FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"('approval_decisions is append-only: a decision cannot be altered');
CREATE TRIGGER "approval_decisions_no_truncate" BEFORE TRUNCATE ON "approval_decisions"
FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"('approval_decisions is append-only: a decision cannot be altered');
CREATE TRIGGER "pointer_moves_no_update_delete" BEFORE UPDATE OR DELETE ON "pointer_moves"
FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"('pointer_moves is append-only: a pointer''s history cannot be altered');
CREATE TRIGGER "pointer_moves_no_truncate" BEFORE TRUNCATE ON "pointer_moves"
FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"('pointer_moves is append-only: a pointer''s history cannot be altered');
