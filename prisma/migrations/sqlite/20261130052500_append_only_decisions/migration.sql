-- Signed decisions and pointer moves are history: rows are only ever inserted (what was approved, by whom,
-- and what the default was at time T must not be rewritten afterwards).
CREATE TRIGGER "approval_decisions_no_update" BEFORE UPDATE ON "approval_decisions"
BEGIN SELECT RAISE(ABORT, 'approval_decisions is append-only: a decision cannot be altered'); END;
CREATE TRIGGER "approval_decisions_no_delete" BEFORE DELETE ON "approval_decisions"
BEGIN SELECT RAISE(ABORT, 'approval_decisions is append-only: a decision cannot be altered'); END;
CREATE TRIGGER "pointer_moves_no_update" BEFORE UPDATE ON "pointer_moves"
BEGIN SELECT RAISE(ABORT, 'pointer_moves is append-only: a pointer''s history cannot be altered'); END;
CREATE TRIGGER "pointer_moves_no_delete" BEFORE DELETE ON "pointer_moves"
BEGIN SELECT RAISE(ABORT, 'pointer_moves is append-only: a pointer''s history cannot be altered'); END;
