import { Prisma } from '@prisma/client';
import { ROW_COLUMNS } from './page-strategies.sql';

// One record by its id (imagery_pkey), in the columns of a search's page: GET /images/{id}.
export function recordByIdSql(id: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${ROW_COLUMNS}, 0::float8 AS score, NULL::float8 AS distance
    FROM imagery i WHERE i.id = ${id}::uuid`;
}
