-- A published resources version is immutable: receipts and pointers name (id, version, digest), and a consumer
-- fetching that version must get those bytes. A write makes a new version (store_resources.version + 1); the
-- rows of earlier versions are never rewritten, and the head row only ever moves to the next version.
CREATE FUNCTION "refuse_resources_version_rewrite"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'store_resources_versions' THEN
    RAISE EXCEPTION 'store_resources_versions is immutable: a published resources version cannot be rewritten; write a new version';
  END IF;
  IF NEW."version" <> OLD."version" + 1 OR NEW."resources_id" <> OLD."resources_id" THEN
    RAISE EXCEPTION 'store_resources is immutable per version: an update must write the next version';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "store_resources_versions_no_update" BEFORE UPDATE ON "store_resources_versions"
FOR EACH ROW EXECUTE FUNCTION "refuse_resources_version_rewrite"();
CREATE TRIGGER "store_resources_next_version_only" BEFORE UPDATE ON "store_resources"
FOR EACH ROW EXECUTE FUNCTION "refuse_resources_version_rewrite"();
