/** Database schema, Schedulers (issue 10): calendars and the jobs they start and stop. Re-exported by ./index.ts. */
import { jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users } from './core';
import { inferenceJobs } from './inference';

/**
 * Schedulers (issue 10 `/schedulers`; src/protocol/schedulers.ts): a user's calendars of recurring weekly
 * intervals in an IANA zone (intervals: CalendarInterval[] as JSON), and the jobs each one starts and stops.
 * A job belongs to at most one calendar (job_id is the key); deleting either side removes the link.
 */
export const schedulingCalendars = pgTable(
  'scheduling_calendars',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    timeZone: text('time_zone').notNull(),
    intervals: jsonb('intervals').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('scheduling_calendars_owner_name_uq').on(t.ownerId, t.name)],
);

export const schedulingCalendarJobs = pgTable('scheduling_calendar_jobs', {
  jobId: uuid('job_id')
    .primaryKey()
    .references(() => inferenceJobs.id, { onDelete: 'cascade' }),
  calendarId: uuid('calendar_id')
    .notNull()
    .references(() => schedulingCalendars.id, { onDelete: 'cascade' }),
});
