import { permissionSuite } from "./permission-suite.ts";

permissionSuite("2.0.15", "supergroup");
