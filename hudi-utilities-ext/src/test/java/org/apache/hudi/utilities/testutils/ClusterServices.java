/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hudi.utilities.testutils;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The services of {@code demo/run-on-cluster.sh}, started by the same code as the tests': S3Proxy with one bucket
 * holding the job files, and a Spark standalone cluster of two Workers. Runs until it is terminated or the process
 * that started it exits, then stops both.
 *
 * <pre>
 * java -cp &lt;test classes&gt;:&lt;deployment classpath&gt; -Ds3proxy.classpath.file=... -Ddeployment.classpath.file=...
 *   -Dspark.java17.opens=... org.apache.hudi.utilities.testutils.ClusterServices &lt;dir&gt; &lt;bucket&gt; [key=file]...
 * </pre>
 *
 * <p>The S3 credentials are read from {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} (the Workers, and
 * so the executors, inherit them). Each {@code key=file} is uploaded to {@code s3a://<bucket>/<key>}. Once everything
 * is up, {@code <dir>/services.env} holds {@code MASTER_URL}, {@code SPARK_HOME}, {@code S3_ENDPOINT},
 * {@code S3_REGION} and {@code CLUSTER_DIR} as shell assignments.
 */
public final class ClusterServices {

  private ClusterServices() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("Usage: ClusterServices <dir> <bucket> [key=file]...");
      System.exit(2);
    }
    Path dir = Paths.get(args[0]).toAbsolutePath();
    String bucket = args[1];
    String accessKey = System.getenv("AWS_ACCESS_KEY_ID");
    String secretKey = System.getenv("AWS_SECRET_ACCESS_KEY");
    if (accessKey == null || secretKey == null) {
      System.err.println("Cannot start S3Proxy: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (its "
          + "credentials, which S3A then reads from the environment)");
      System.exit(2);
    }
    try (S3ProxyServer s3 = S3ProxyServer.start(dir.resolve("s3proxy"), accessKey, secretKey);
         SparkStandaloneCluster cluster = SparkStandaloneCluster.start(dir.resolve("spark-cluster"),
             LocalProcesses.freePort(), 2, s3.credentialsEnvironment())) {
      System.out.println("S3Proxy " + s3.endpoint() + " (log " + s3.log() + ")");
      String root = s3.createBucket(bucket);
      Configuration conf = new Configuration();
      s3.configure(conf);
      for (int i = 2; i < args.length; i++) {
        String[] upload = args[i].split("=", 2);
        FileSystem.get(URI.create(root + "/"), conf)
            .copyFromLocalFile(new org.apache.hadoop.fs.Path(Paths.get(upload[1]).toAbsolutePath().toUri()),
                new org.apache.hadoop.fs.Path(root + "/" + upload[0]));
        System.out.println("uploaded " + upload[1] + " to " + root + "/" + upload[0]);
      }
      System.out.println("Spark master " + cluster.masterUrl() + "; " + cluster.describeLogs());
      writeEnvironment(dir, Map.of("MASTER_URL", cluster.masterUrl(), "SPARK_HOME", cluster.sparkHome().toString(),
          "S3_ENDPOINT", s3.endpoint(), "S3_REGION", s3.s3aEndpointSettings().get("fs.s3a.endpoint.region"),
          "CLUSTER_DIR", cluster.dir().toString()));
      // Until terminated (the shutdown hooks of both stop them too) or orphaned.
      ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().join());
    }
  }

  private static void writeEnvironment(Path dir, Map<String, String> variables) throws IOException {
    StringBuilder text = new StringBuilder();
    variables.forEach((name, value) -> text.append(name).append("='").append(value).append("'\n"));
    Path partial = dir.resolve("services.env.partial");
    Files.write(partial, text.toString().getBytes(StandardCharsets.UTF_8));
    Files.move(partial, dir.resolve("services.env"), StandardCopyOption.REPLACE_EXISTING);
  }
}
