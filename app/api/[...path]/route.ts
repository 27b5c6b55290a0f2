// Any /api path no other route serves: a JSON 404 listing the endpoints (not Next.js's HTML page).
import { unknownEndpointRoute } from "@/server/http/api-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = unknownEndpointRoute();
