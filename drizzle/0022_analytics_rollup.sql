-- issue 11 analytics: hourly rollup of alarm events (events is the alarms feature's table; this migration only
-- adds statement-level triggers on it that keep event_rollup_hourly, and backfills it).
CREATE OR REPLACE FUNCTION event_rollup_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_rollup_hourly (user_id, hour, class, camera_id, severity, count)
  SELECT user_id, date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00'), class, camera_id, severity, count(*)
  FROM new_rows GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (user_id, hour, class, camera_id, severity)
  DO UPDATE SET count = event_rollup_hourly.count + EXCLUDED.count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_rollup_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT user_id, date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00') AS hour, class, camera_id, severity,
      count(*) AS n
    FROM old_rows GROUP BY 1, 2, 3, 4, 5
  )
  UPDATE event_rollup_hourly r SET count = r.count - d.n FROM d
  WHERE r.user_id = d.user_id AND r.hour = d.hour AND r.class = d.class AND r.camera_id = d.camera_id
    AND r.severity = d.severity;
  DELETE FROM event_rollup_hourly WHERE count <= 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_rollup_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o FULL JOIN new_rows n ON o.id = n.id
    WHERE o.id IS NULL OR n.id IS NULL OR o.user_id <> n.user_id OR o.at <> n.at OR o.class <> n.class
      OR o.camera_id <> n.camera_id OR o.severity <> n.severity
  ) THEN
    WITH d AS (
      SELECT user_id, date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00') AS hour, class, camera_id,
        severity, count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4, 5
    )
    UPDATE event_rollup_hourly r SET count = r.count - d.n FROM d
    WHERE r.user_id = d.user_id AND r.hour = d.hour AND r.class = d.class AND r.camera_id = d.camera_id
      AND r.severity = d.severity;
    INSERT INTO event_rollup_hourly (user_id, hour, class, camera_id, severity, count)
    SELECT user_id, date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00'), class, camera_id, severity, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (user_id, hour, class, camera_id, severity)
    DO UPDATE SET count = event_rollup_hourly.count + EXCLUDED.count;
    DELETE FROM event_rollup_hourly WHERE count <= 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_rollup_insert AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_rollup_add();
--> statement-breakpoint
CREATE TRIGGER events_rollup_delete AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_rollup_remove();
--> statement-breakpoint
CREATE TRIGGER events_rollup_update AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION event_rollup_move();
--> statement-breakpoint
INSERT INTO event_rollup_hourly (user_id, hour, class, camera_id, severity, count)
SELECT user_id, date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00'), class, camera_id, severity, count(*)
FROM events GROUP BY 1, 2, 3, 4, 5
ON CONFLICT (user_id, hour, class, camera_id, severity) DO UPDATE SET count = EXCLUDED.count;
