-- A published resources version is immutable: receipts and pointers name (id, version, digest), and a consumer
-- fetching that version must get those bytes. A write makes a new version (store_resources.version + 1); the
-- rows of earlier versions are never rewritten, and the head row only ever moves to the next version.
CREATE TRIGGER "store_resources_versions_no_update" BEFORE UPDATE ON "store_resources_versions"
BEGIN SELECT RAISE(ABORT, 'store_resources_versions is immutable: a published resources version cannot be rewritten; write a new version'); END;
CREATE TRIGGER "store_resources_next_version_only" BEFORE UPDATE ON "store_resources"
WHEN NEW."version" <> OLD."version" + 1 OR NEW."resources_id" <> OLD."resources_id"
BEGIN SELECT RAISE(ABORT, 'store_resources is immutable per version: an update must write the next version'); END;
