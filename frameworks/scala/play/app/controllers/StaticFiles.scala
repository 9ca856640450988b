package controllers

import java.net.URL
import java.nio.file.{Files, Path}
import javax.inject.{Inject, Singleton}

import play.api.{Configuration, Environment}
import play.api.http.{FileMimeTypes, HttpErrorHandler}

/**
 * static: Play's Assets controller (AssetsBuilder, with its ETag, Last-Modified, Cache-Control and Range handling),
 * given a DefaultAssetsMetadata that looks the files up in STATIC_DIR instead of the classpath's public/: the
 * harness writes the file at run time, and Play's ExternalAssets, the controller for a folder, answers 404 in
 * production mode by design. A name that leads outside the folder is not found.
 */
@Singleton
class StaticFiles @Inject() (errorHandler: HttpErrorHandler, assets: AssetsConfiguration, mimeTypes: FileMimeTypes,
                             environment: Environment, config: Configuration)
    extends AssetsBuilder(
      errorHandler,
      DefaultAssetsMetadata(assets, StaticFiles.in(Path.of(config.get[String]("webshootout.static-dir"))), mimeTypes),
      environment,
    )

object StaticFiles:
  def in(folder: Path): String => Option[URL] =
    val root = folder.toRealPath()
    name =>
      val file = root.resolve(name.stripPrefix("/")).normalize()
      Option.when(file.startsWith(root) && Files.isRegularFile(file))(file.toUri.toURL)
