-- The exact parent must stay loadable (release-gate spec, "Decisions since the first release").
-- 1. Retention keeps a receipt's admitted rollouts: every stage 2 now holds them when sealed
--    (server/receipts/evidence-holds.ts); this holds those of the receipts sealed before, once.
INSERT INTO "retention_holds" ("rollout_id", "reason")
SELECT r->>'rolloutId', 'receipt:' || l."candidate_id"
FROM "receipt_links" l CROSS JOIN LATERAL jsonb_array_elements(COALESCE(l."content"::jsonb -> 'rollouts', '[]'::jsonb)) r
WHERE l."kind" = 'stage2' AND r->>'rolloutId' IS NOT NULL
ON CONFLICT DO NOTHING;

-- 2. A resources version a release names — a candidate or its exact parent, a pointer's target, any version in a
--    pointer's history — is never deleted (the store never deletes one; this refuses it behind the store too).
CREATE FUNCTION "refuse_named_resources_version_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "candidates" c WHERE (c."resources_id" = OLD."resources_id" AND c."version" = OLD."version")
                                           OR (c."parent_resources_id" = OLD."resources_id" AND c."parent_version" = OLD."version"))
     OR EXISTS (SELECT 1 FROM "pointers" p WHERE p."resources_id" = OLD."resources_id" AND p."version" = OLD."version")
     OR EXISTS (SELECT 1 FROM "pointer_moves" m WHERE (m."to_resources_id" = OLD."resources_id" AND m."to_version" = OLD."version")
                                               OR (m."from_resources_id" = OLD."resources_id" AND m."from_version" = OLD."version")) THEN
    RAISE EXCEPTION 'store_resources_versions: this version is a candidate or its exact parent, a pointer target or in a pointer''s history; it is never deleted';
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER "store_resources_versions_named_no_delete" BEFORE DELETE ON "store_resources_versions"
FOR EACH ROW EXECUTE FUNCTION "refuse_named_resources_version_delete"();
