import { permissionSuite } from "./permission-suite.ts";

permissionSuite("1.1.53", "supergroup");
