-- The exact parent must stay loadable (release-gate spec, "Decisions since the first release").
-- 1. Retention keeps a receipt's admitted rollouts: every stage 2 now holds them when sealed
--    (server/receipts/evidence-holds.ts); this holds those of the receipts sealed before, once.
INSERT OR IGNORE INTO "retention_holds" ("rollout_id", "reason")
SELECT json_extract(r.value, '$.rolloutId'), 'receipt:' || l."candidate_id"
FROM "receipt_links" l, json_each(l."content", '$.rollouts') r
WHERE l."kind" = 'stage2' AND json_extract(r.value, '$.rolloutId') IS NOT NULL;

-- 2. A resources version a release names — a candidate or its exact parent, a pointer's target, any version in a
--    pointer's history — is never deleted (the store never deletes one; this refuses it behind the store too).
CREATE TRIGGER "store_resources_versions_named_no_delete" BEFORE DELETE ON "store_resources_versions"
WHEN EXISTS (SELECT 1 FROM "candidates" c WHERE (c."resources_id" = OLD."resources_id" AND c."version" = OLD."version")
                                          OR (c."parent_resources_id" = OLD."resources_id" AND c."parent_version" = OLD."version"))
  OR EXISTS (SELECT 1 FROM "pointers" p WHERE p."resources_id" = OLD."resources_id" AND p."version" = OLD."version")
  OR EXISTS (SELECT 1 FROM "pointer_moves" m WHERE (m."to_resources_id" = OLD."resources_id" AND m."to_version" = OLD."version")
                                              OR (m."from_resources_id" = OLD."resources_id" AND m."from_version" = OLD."version"))
BEGIN SELECT RAISE(ABORT, 'store_resources_versions: this version is a candidate or its exact parent, a pointer target or in a pointer''s history; it is never deleted'); END;
